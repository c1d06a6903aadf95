ALTER TABLE "credits" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "credits_by_key" ON "credits" USING btree ("tenant_id","credit_id");--> statement-breakpoint
CREATE INDEX "credits_by_contact_name" ON "credits" USING btree ("tenant_id","contact_name","credit_id");--> statement-breakpoint
CREATE INDEX "credits_by_created_at" ON "credits" USING btree ("tenant_id","created_at","credit_id");--> statement-breakpoint
CREATE INDEX "credits_by_amount_cents" ON "credits" USING btree ("tenant_id","amount_cents","credit_id");--> statement-breakpoint
CREATE INDEX "invoices_by_key" ON "invoices" USING btree ("tenant_id","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_number" ON "invoices" USING btree ("tenant_id","number","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_contact_name" ON "invoices" USING btree ("tenant_id","contact_name","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_issue_date" ON "invoices" USING btree ("tenant_id","issue_date","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_due_date" ON "invoices" USING btree ("tenant_id","due_date","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status" ON "invoices" USING btree ("tenant_id","status","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_total_cents" ON "invoices" USING btree ("tenant_id","total_cents","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_balance_cents" ON "invoices" USING btree ("tenant_id","balance_cents","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_number" ON "invoices" USING btree ("tenant_id","status","number","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_contact_name" ON "invoices" USING btree ("tenant_id","status","contact_name","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_issue_date" ON "invoices" USING btree ("tenant_id","status","issue_date","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_due_date" ON "invoices" USING btree ("tenant_id","status","due_date","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_total_cents" ON "invoices" USING btree ("tenant_id","status","total_cents","invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_by_status_balance_cents" ON "invoices" USING btree ("tenant_id","status","balance_cents","invoice_id");--> statement-breakpoint
CREATE INDEX "payments_by_key" ON "payments" USING btree ("tenant_id","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_contact_name" ON "payments" USING btree ("tenant_id","contact_name","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_paid_at" ON "payments" USING btree ("tenant_id","paid_at","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_method" ON "payments" USING btree ("tenant_id","method","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_amount_cents" ON "payments" USING btree ("tenant_id","amount_cents","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_status" ON "payments" USING btree ("tenant_id","status","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_method_contact_name" ON "payments" USING btree ("tenant_id","method","contact_name","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_method_paid_at" ON "payments" USING btree ("tenant_id","method","paid_at","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_method_amount_cents" ON "payments" USING btree ("tenant_id","method","amount_cents","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_method_status" ON "payments" USING btree ("tenant_id","method","status","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_status_contact_name" ON "payments" USING btree ("tenant_id","status","contact_name","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_status_paid_at" ON "payments" USING btree ("tenant_id","status","paid_at","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_status_method" ON "payments" USING btree ("tenant_id","status","method","id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_by_status_amount_cents" ON "payments" USING btree ("tenant_id","status","amount_cents","id") WHERE not is_deleted;