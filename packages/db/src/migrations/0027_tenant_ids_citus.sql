-- On Citus, the tenant scope of a transaction (SET LOCAL app.tenant_id, app.user_id) must reach the workers, whose
-- shards apply the same row-level security: Citus propagates SET LOCAL only with this setting (decision 0071).
-- Plain PostgreSQL and PGlite have no Citus: nothing to do there.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    EXECUTE format('ALTER DATABASE %I SET citus.propagate_set_commands = %L', current_database(), 'local');
  END IF;
END
$$;
