-- Row-level security, per-tenant ids and record versions of custom fields and their values (decision 0111).
SELECT gh_enable_tenant_rls('custom_fields');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('custom_field_values');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('custom_fields', 'custom_field_id');
--> statement-breakpoint
SELECT gh_enable_record_version('custom_fields');
