-- Saved reports and dashboard pins: row-level security forced, ids numbered per association, record versions.
SELECT gh_enable_tenant_rls('saved_reports');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('saved_reports', 'saved_report_id');
--> statement-breakpoint
SELECT gh_enable_record_version('saved_reports');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('report_pins');
--> statement-breakpoint
-- A private report is its owner's alone: no statement of another user reads it; only its owner changes or deletes it.
CREATE POLICY visible_reports ON saved_reports AS RESTRICTIVE FOR SELECT
  USING (is_shared OR owner_user_id = nullif(current_setting('app.user_id', true), '')::bigint);
--> statement-breakpoint
CREATE POLICY own_reports_insert ON saved_reports AS RESTRICTIVE FOR INSERT
  WITH CHECK (owner_user_id = nullif(current_setting('app.user_id', true), '')::bigint);
--> statement-breakpoint
CREATE POLICY own_reports_update ON saved_reports AS RESTRICTIVE FOR UPDATE
  USING (owner_user_id = nullif(current_setting('app.user_id', true), '')::bigint)
  WITH CHECK (owner_user_id = nullif(current_setting('app.user_id', true), '')::bigint);
--> statement-breakpoint
CREATE POLICY own_reports_delete ON saved_reports AS RESTRICTIVE FOR DELETE
  USING (owner_user_id = nullif(current_setting('app.user_id', true), '')::bigint);
--> statement-breakpoint
-- A user's pins are their own.
CREATE POLICY own_pins ON report_pins AS RESTRICTIVE
  USING (user_id = nullif(current_setting('app.user_id', true), '')::bigint)
  WITH CHECK (user_id = nullif(current_setting('app.user_id', true), '')::bigint);
