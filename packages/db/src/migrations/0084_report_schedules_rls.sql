-- Report schedules (decision 0176): row-level security forced, ids numbered per association. Not restricted by
-- owner: the daily job reads every schedule of an association and runs each report as its owner.
SELECT gh_enable_tenant_rls('report_schedules');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('report_schedules', 'schedule_id');
