-- Communications: row-level security, per-tenant ids and record versions of its tables (decisions 0060, 0071, 0095).
SELECT gh_enable_tenant_rls('email_templates');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('signatures');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('mailings');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('mailing_recipients');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('mail_suppressions');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('email_templates', 'template_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('signatures', 'signature_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('mailings', 'mailing_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('mailing_recipients', 'recipient_id');
--> statement-breakpoint
SELECT gh_enable_record_version('email_templates');
