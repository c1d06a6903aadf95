-- Row-level security on the contacts tables, their counters and the global search index.
SELECT gh_enable_tenant_rls('contacts');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('contact_entries');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('contact_links');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('contact_counts');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('search_documents');
