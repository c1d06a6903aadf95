-- Row-level security on the tables of the generic screen layer, and the job-claim function of the worker.
SELECT gh_enable_tenant_rls('samples');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('table_settings');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('user_widget_settings');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('jobs');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('stored_files');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('report_favorites');
--> statement-breakpoint
-- The worker claims the next queued job of any tenant, then runs it inside that tenant's scope. Only the claim
-- function switches app.job_claim on, for the duration of its own statement; no tenant data is visible to it.
CREATE POLICY job_claim ON jobs USING (current_setting('app.job_claim', true) = 'on');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_claim_job(p_kinds text[])
  RETURNS TABLE (tenant_id uuid, id uuid, kind text, payload jsonb, user_id bigint, attempts integer)
  LANGUAGE sql VOLATILE
  SET app.job_claim = 'on'
  SET search_path = public, pg_temp
  AS $$
    UPDATE jobs j
       SET status = 'running', locked_at = now(), attempts = j.attempts + 1
     WHERE (j.tenant_id, j.id) = (
       SELECT q.tenant_id, q.id FROM jobs q
        WHERE q.status = 'queued' AND q.run_after <= now() AND q.kind = ANY (p_kinds)
        ORDER BY q.run_after
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING j.tenant_id, j.id, j.kind, j.payload, j.user_id, j.attempts;
  $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_claim_job(text[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_claim_job(text[]) TO guildhall_app;
