-- Row-level security on the payments tables: each tenant sees and writes only its own payments and refunds.
SELECT gh_enable_tenant_rls('payments');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('refunds');
