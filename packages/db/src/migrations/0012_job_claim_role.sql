-- Claiming a job of any tenant is a role, not a setting (decision 0042). Until now the job_claim policy let through
-- any session that had set app.job_claim = 'on', which guildhall_app may set itself. Now only guildhall_jobs passes
-- it: a NOLOGIN role that may read and update jobs and nothing else, which owns the claim functions (SECURITY
-- DEFINER, so current_user is guildhall_jobs inside them only) and of which guildhall_app is not a member.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'guildhall_jobs') THEN
    CREATE ROLE guildhall_jobs NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO guildhall_jobs;
--> statement-breakpoint
-- The claim reads queued and running jobs (FOR UPDATE) and updates them; nothing else.
GRANT SELECT, UPDATE ON jobs TO guildhall_jobs;
--> statement-breakpoint
DROP POLICY IF EXISTS job_claim ON jobs;
--> statement-breakpoint
CREATE POLICY job_claim ON jobs TO guildhall_jobs
  USING (current_user = 'guildhall_jobs') WITH CHECK (current_user = 'guildhall_jobs');
--> statement-breakpoint
-- Kept for instances not yet updated (decision 0042); the worker calls the three-argument one.
CREATE OR REPLACE FUNCTION gh_claim_job(p_kinds text[])
  RETURNS TABLE (tenant_id uuid, id uuid, kind text, payload jsonb, user_id bigint, attempts integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER
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
CREATE OR REPLACE FUNCTION gh_claim_job(p_kinds text[], p_stale_after interval, p_max_attempts integer)
  RETURNS TABLE (tenant_id uuid, id uuid, kind text, payload jsonb, user_id bigint, attempts integer)
  LANGUAGE sql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
    UPDATE jobs j
       SET status = 'failed', finished_at = now(),
           error = 'The server running this job stopped ' || j.attempts || ' times before it finished.'
     WHERE j.status = 'running' AND j.locked_at < now() - p_stale_after AND j.attempts >= p_max_attempts
       AND j.kind = ANY (p_kinds);
    UPDATE jobs j
       SET status = 'running', locked_at = now(), attempts = j.attempts + 1, progress_done = NULL,
           progress_total = NULL
     WHERE (j.tenant_id, j.id) = (
       SELECT q.tenant_id, q.id FROM jobs q
        WHERE q.kind = ANY (p_kinds)
          AND ((q.status = 'queued' AND q.run_after <= now())
            OR (q.status = 'running' AND q.locked_at < now() - p_stale_after AND q.attempts < p_max_attempts))
        ORDER BY q.run_after
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING j.tenant_id, j.id, j.kind, j.payload, j.user_id, j.attempts;
  $$;
--> statement-breakpoint
-- A superuser (PGlite, the PostgreSQL used here) may give the functions to guildhall_jobs outright. A non-superuser
-- owner must be able to SET ROLE guildhall_jobs and the role must have CREATE on the schema for that moment: the
-- owner becomes a member (as it is of guildhall_app, so later migrations can replace the functions), the CREATE is
-- taken back at once.
DO $$
DECLARE
  super boolean := (SELECT rolsuper FROM pg_roles WHERE rolname = current_user);
BEGIN
  IF NOT super THEN
    EXECUTE format('GRANT guildhall_jobs TO %I', current_user);
    GRANT CREATE ON SCHEMA public TO guildhall_jobs;
  END IF;
  ALTER FUNCTION gh_claim_job(text[]) OWNER TO guildhall_jobs;
  ALTER FUNCTION gh_claim_job(text[], interval, integer) OWNER TO guildhall_jobs;
  IF NOT super THEN
    REVOKE CREATE ON SCHEMA public FROM guildhall_jobs;
  END IF;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_claim_job(text[]) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_claim_job(text[], interval, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_claim_job(text[]) TO guildhall_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_claim_job(text[], interval, integer) TO guildhall_app;
