-- daily_runs belongs to associations like every tenant-owned table: row-level security on and forced. Only
-- gh_queue_daily (run as the owner) writes it; the app role reads nothing of it.
SELECT gh_enable_tenant_rls('daily_runs');
