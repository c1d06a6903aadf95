-- Daily jobs (decision 0181): queues each of p_kinds once per association and calendar day of the association's own
-- timezone, from p_hour o'clock there. The claim (daily_runs) and the job are written in one statement, so a job is
-- queued once whatever the number of instances checking; answers how many were queued. Runs as its owner: it reads
-- every association's timezone and writes each one's job, nothing else.
CREATE OR REPLACE FUNCTION gh_queue_daily(p_kinds text[], p_hour integer, p_now timestamptz DEFAULT now())
  RETURNS integer
  LANGUAGE sql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
  WITH due AS (
    SELECT k.kind, t.id AS tenant_id, (p_now AT TIME ZONE z.tz)::date AS day
      FROM tenants t
      CROSS JOIN LATERAL (SELECT coalesce(
        (SELECT name FROM pg_timezone_names WHERE name = t.settings->>'defaultTimezone' LIMIT 1), 'UTC') AS tz) z
      CROSS JOIN unnest(p_kinds) AS k(kind)
     WHERE extract(hour FROM p_now AT TIME ZONE z.tz) >= p_hour
  ), claimed AS (
    INSERT INTO daily_runs (kind, tenant_id, day) SELECT kind, tenant_id, day FROM due
      ON CONFLICT DO NOTHING RETURNING kind, tenant_id, day
  ), queued AS (
    INSERT INTO jobs (tenant_id, kind, payload)
      SELECT tenant_id, kind, jsonb_build_object('day', day::text) FROM claimed RETURNING 1
  )
  SELECT count(*)::integer FROM queued
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_queue_daily(text[], integer, timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_queue_daily(text[], integer, timestamptz) TO guildhall_app;
