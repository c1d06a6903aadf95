-- Certification programmes and registrations: row-level security forced like every association's table, ids
-- numbered per association.
SELECT gh_enable_tenant_rls('certification_programmes');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('certification_programmes', 'programme_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('certification_registrations');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('certification_registrations', 'certification_registration_id');
