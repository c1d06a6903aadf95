-- Renewal runs and reminders: row-level security forced, run ids numbered per association.
SELECT gh_enable_tenant_rls('membership_renewal_runs');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_renewal_runs', 'run_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_reminders');
