-- Row-level security on the file library and its images.
SELECT gh_enable_tenant_rls('files');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('images');
