-- Memberships: row-level security, per-association ids and record versions (decision 0130).
SELECT gh_enable_tenant_rls('membership_types');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_types', 'membership_type_id');
--> statement-breakpoint
SELECT gh_enable_record_version('membership_types');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_levels');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_levels', 'membership_level_id');
--> statement-breakpoint
SELECT gh_enable_record_version('membership_levels');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('chapters');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('chapters', 'chapter_id');
--> statement-breakpoint
SELECT gh_enable_record_version('chapters');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_fees');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_fees', 'fee_price_id');
--> statement-breakpoint
SELECT gh_enable_record_version('membership_fees');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('bill_frequency_options');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('bill_frequency_options', 'option_id');
--> statement-breakpoint
SELECT gh_enable_record_version('bill_frequency_options');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('memberships');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('memberships', 'membership_id');
--> statement-breakpoint
SELECT gh_enable_record_version('memberships');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_fee_items');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_fee_items', 'item_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_history');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_history', 'history_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('membership_invoices');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('membership_invoices', 'membership_invoice_id');
