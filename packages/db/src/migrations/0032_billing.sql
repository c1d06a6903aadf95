CREATE TABLE "billing_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"terms_days" integer DEFAULT 30 NOT NULL,
	"invoice_prefix" text DEFAULT 'INV-' NOT NULL,
	"gateway" text DEFAULT 'none' NOT NULL,
	"stripe_secret_key" text,
	"stripe_publishable_key" text,
	"stripe_webhook_secret" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credits" (
	"tenant_id" uuid NOT NULL,
	"credit_id" bigint DEFAULT gh_next_id('credits') NOT NULL,
	"contact_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"applied_cents" bigint DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"invoice_id" bigint,
	"source_kind" text,
	"source_id" bigint,
	"revenue_account_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "credits_tenant_id_credit_id_pk" PRIMARY KEY("tenant_id","credit_id"),
	CONSTRAINT "credits_amounts" CHECK ("credits"."amount_cents" > 0 and "credits"."applied_cents" >= 0 and "credits"."applied_cents" <= "credits"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"tenant_id" uuid NOT NULL,
	"deposit_id" bigint DEFAULT gh_next_id('deposits') NOT NULL,
	"deposit_date" date NOT NULL,
	"bank_account_id" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"payment_count" integer NOT NULL,
	"reference" text,
	"status" text DEFAULT 'deposited' NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "deposits_tenant_id_deposit_id_pk" PRIMARY KEY("tenant_id","deposit_id")
);
--> statement-breakpoint
CREATE TABLE "gateway_events" (
	"tenant_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_events_tenant_id_gateway_event_id_pk" PRIMARY KEY("tenant_id","gateway","event_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_applications" (
	"tenant_id" uuid NOT NULL,
	"application_id" bigint DEFAULT gh_next_id('invoice_applications') NOT NULL,
	"invoice_id" bigint NOT NULL,
	"payment_id" bigint,
	"credit_id" bigint,
	"amount_cents" bigint NOT NULL,
	"is_reversed" boolean DEFAULT false NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_applications_tenant_id_application_id_pk" PRIMARY KEY("tenant_id","application_id"),
	CONSTRAINT "invoice_applications_amount" CHECK ("invoice_applications"."amount_cents" > 0),
	CONSTRAINT "invoice_applications_one_source" CHECK (("invoice_applications"."payment_id" is null) <> ("invoice_applications"."credit_id" is null))
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"tenant_id" uuid NOT NULL,
	"line_id" bigint DEFAULT gh_next_id('invoice_lines') NOT NULL,
	"invoice_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_set_id" bigint,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint NOT NULL,
	"revenue_account_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_lines_tenant_id_line_id_pk" PRIMARY KEY("tenant_id","line_id")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"tenant_id" uuid NOT NULL,
	"invoice_id" bigint DEFAULT gh_next_id('invoices') NOT NULL,
	"number" text,
	"contact_id" bigint NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"subtotal_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"applied_cents" bigint DEFAULT 0 NOT NULL,
	"written_off_cents" bigint DEFAULT 0 NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"source_kind" text,
	"source_id" bigint,
	"idempotency_key" text,
	"memo" text,
	"void_reason" text,
	"voided_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "invoices_tenant_id_invoice_id_pk" PRIMARY KEY("tenant_id","invoice_id"),
	CONSTRAINT "invoices_status" CHECK ("invoices"."status" in ('draft', 'open', 'partially_paid', 'paid', 'void', 'written_off')),
	CONSTRAINT "invoices_balance" CHECK ("invoices"."balance_cents" >= 0 and "invoices"."applied_cents" >= 0 and "invoices"."written_off_cents" >= 0 and "invoices"."balance_cents" = "invoices"."total_cents" - "invoices"."applied_cents" - "invoices"."written_off_cents" or "invoices"."status" = 'void')
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"tenant_id" uuid NOT NULL,
	"account_id" bigint DEFAULT gh_next_id('ledger_accounts') NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"role" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "ledger_accounts_tenant_id_account_id_pk" PRIMARY KEY("tenant_id","account_id"),
	CONSTRAINT "ledger_accounts_kind" CHECK ("ledger_accounts"."kind" in ('asset', 'liability', 'revenue', 'expense', 'equity'))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"tenant_id" uuid NOT NULL,
	"entry_id" bigint DEFAULT gh_next_id('ledger_entries') NOT NULL,
	"entry_date" date NOT NULL,
	"kind" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" bigint NOT NULL,
	"contact_id" bigint,
	"memo" text,
	"reverses_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_tenant_id_entry_id_pk" PRIMARY KEY("tenant_id","entry_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_lines" (
	"tenant_id" uuid NOT NULL,
	"line_id" bigint DEFAULT gh_next_id('ledger_lines') NOT NULL,
	"entry_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"debit_cents" bigint DEFAULT 0 NOT NULL,
	"credit_cents" bigint DEFAULT 0 NOT NULL,
	"contact_id" bigint,
	"invoice_id" bigint,
	"entry_date" date NOT NULL,
	CONSTRAINT "ledger_lines_tenant_id_line_id_pk" PRIMARY KEY("tenant_id","line_id"),
	CONSTRAINT "ledger_lines_one_side" CHECK ("ledger_lines"."debit_cents" >= 0 and "ledger_lines"."credit_cents" >= 0 and ("ledger_lines"."debit_cents" = 0) <> ("ledger_lines"."credit_cents" = 0))
);
--> statement-breakpoint
CREATE TABLE "payment_cards" (
	"tenant_id" uuid NOT NULL,
	"card_id" bigint DEFAULT gh_next_id('payment_cards') NOT NULL,
	"contact_id" bigint NOT NULL,
	"gateway" text NOT NULL,
	"customer_ref" text,
	"method_ref" text NOT NULL,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"is_default" boolean DEFAULT true NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_cards_tenant_id_card_id_pk" PRIMARY KEY("tenant_id","card_id")
);
--> statement-breakpoint
CREATE TABLE "tax_sets" (
	"tenant_id" uuid NOT NULL,
	"tax_set_id" bigint DEFAULT gh_next_id('tax_sets') NOT NULL,
	"name" text NOT NULL,
	"rate" numeric(7, 4) DEFAULT '0' NOT NULL,
	"float_amount_cents" bigint DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "tax_sets_tenant_id_tax_set_id_pk" PRIMARY KEY("tenant_id","tax_set_id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "applied_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "check_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "status" text DEFAULT 'completed' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "deposit_id" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gateway" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gateway_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "memo" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "amount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "gateway_ref" text;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_events" ADD CONSTRAINT "gateway_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_invoice_fk" FOREIGN KEY ("tenant_id","invoice_id") REFERENCES "public"."invoices"("tenant_id","invoice_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_payment_fk" FOREIGN KEY ("tenant_id","payment_id") REFERENCES "public"."payments"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_credit_fk" FOREIGN KEY ("tenant_id","credit_id") REFERENCES "public"."credits"("tenant_id","credit_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_fk" FOREIGN KEY ("tenant_id","invoice_id") REFERENCES "public"."invoices"("tenant_id","invoice_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_entry_fk" FOREIGN KEY ("tenant_id","entry_id") REFERENCES "public"."ledger_entries"("tenant_id","entry_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_account_fk" FOREIGN KEY ("tenant_id","account_id") REFERENCES "public"."ledger_accounts"("tenant_id","account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_cards" ADD CONSTRAINT "payment_cards_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_sets" ADD CONSTRAINT "tax_sets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credits_contact_idx" ON "credits" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "deposits_date_idx" ON "deposits" USING btree ("tenant_id","deposit_date");--> statement-breakpoint
CREATE INDEX "invoice_applications_invoice_idx" ON "invoice_applications" USING btree ("tenant_id","invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_applications_payment_idx" ON "invoice_applications" USING btree ("tenant_id","payment_id");--> statement-breakpoint
CREATE INDEX "invoice_applications_credit_idx" ON "invoice_applications" USING btree ("tenant_id","credit_id");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("tenant_id","invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("tenant_id","number") WHERE number is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_idempotency_key" ON "invoices" USING btree ("tenant_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "invoices_contact_idx" ON "invoices" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "invoices_source_idx" ON "invoices" USING btree ("tenant_id","source_kind","source_id");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("tenant_id","due_date") WHERE status in ('open', 'partially_paid');--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_code_key" ON "ledger_accounts" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_role_key" ON "ledger_accounts" USING btree ("tenant_id","role") WHERE role is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_source_idx" ON "ledger_entries" USING btree ("tenant_id","source_kind","source_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_date_idx" ON "ledger_entries" USING btree ("tenant_id","entry_date");--> statement-breakpoint
CREATE INDEX "ledger_lines_entry_idx" ON "ledger_lines" USING btree ("tenant_id","entry_id");--> statement-breakpoint
CREATE INDEX "ledger_lines_account_idx" ON "ledger_lines" USING btree ("tenant_id","account_id","entry_date");--> statement-breakpoint
CREATE INDEX "payment_cards_contact_idx" ON "payment_cards" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key" ON "payments" USING btree ("tenant_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_gateway_ref_key" ON "payments" USING btree ("tenant_id","gateway","gateway_ref") WHERE gateway_ref is not null;--> statement-breakpoint
CREATE INDEX "payments_contact_idx" ON "payments" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "payments_undeposited_idx" ON "payments" USING btree ("tenant_id","paid_at") WHERE deposit_id is null and status = 'completed' and not is_deleted;--> statement-breakpoint
CREATE INDEX "payments_deposit_idx" ON "payments" USING btree ("tenant_id","deposit_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amounts" CHECK ("payments"."amount_cents" >= 0 and "payments"."applied_cents" >= 0 and "payments"."refunded_cents" >= 0 and "payments"."applied_cents" + "payments"."refunded_cents" <= "payments"."amount_cents");