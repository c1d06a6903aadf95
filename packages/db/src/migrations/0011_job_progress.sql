ALTER TABLE "jobs" ADD COLUMN "progress_done" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "progress_total" integer;--> statement-breakpoint
-- The claim also takes back a running job whose instance stopped: one whose heartbeat (locked_at, refreshed while
-- it runs) is older than p_stale_after. Out of attempts, such a job fails instead. Progress restarts at each claim.
CREATE OR REPLACE FUNCTION gh_claim_job(p_kinds text[], p_stale_after interval, p_max_attempts integer)
  RETURNS TABLE (tenant_id uuid, id uuid, kind text, payload jsonb, user_id bigint, attempts integer)
  LANGUAGE sql VOLATILE
  SET app.job_claim = 'on'
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
REVOKE ALL ON FUNCTION gh_claim_job(text[], interval, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_claim_job(text[], interval, integer) TO guildhall_app;
