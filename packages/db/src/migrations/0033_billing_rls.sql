-- Billing (issue 15): row-level security forced on every billing table, per-tenant ids, record versions, and the
-- ledger's rule that a posted entry or line is never changed (a correction is a reversing entry, decision 0121).
SELECT gh_enable_tenant_rls('ledger_accounts');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('tax_sets');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('billing_settings');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('invoices');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('invoice_lines');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('deposits');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('credits');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('invoice_applications');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('payment_cards');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('gateway_events');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('ledger_entries');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('ledger_lines');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('ledger_accounts', 'account_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('tax_sets', 'tax_set_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('invoices', 'invoice_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('invoice_lines', 'line_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('deposits', 'deposit_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('credits', 'credit_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('invoice_applications', 'application_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('payment_cards', 'card_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('ledger_entries', 'entry_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('ledger_lines', 'line_id');
--> statement-breakpoint
SELECT gh_enable_record_version('ledger_accounts');
--> statement-breakpoint
SELECT gh_enable_record_version('tax_sets');
--> statement-breakpoint
SELECT gh_enable_record_version('invoices');
--> statement-breakpoint
SELECT gh_enable_record_version('deposits');
--> statement-breakpoint
SELECT gh_enable_record_version('payments');
--> statement-breakpoint
SELECT gh_enable_record_version('credits');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_ledger_is_append_only() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'posted ledger % are never changed; post a reversing entry instead', TG_TABLE_NAME;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION gh_ledger_is_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE ON ledger_lines FOR EACH ROW EXECUTE FUNCTION gh_ledger_is_append_only();
