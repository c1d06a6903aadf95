-- Row-level security on the per-tenant counters.
SELECT gh_enable_tenant_rls('tenant_counters');
