-- Bounces and the association's wording of system messages: row-level security forced, bounce ids per association.
SELECT gh_enable_tenant_rls('mail_bounces');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('mail_bounces', 'bounce_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('system_templates');
