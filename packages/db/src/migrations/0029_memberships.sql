CREATE TABLE "bill_frequency_options" (
	"tenant_id" uuid NOT NULL,
	"option_id" bigint DEFAULT gh_next_id('bill_frequency_options') NOT NULL,
	"membership_type_id" bigint NOT NULL,
	"bill_frequency_type_id" integer NOT NULL,
	"name" text,
	"price_change_percentage" text,
	"per_bill_multipler" integer,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "bill_frequency_options_tenant_id_option_id_pk" PRIMARY KEY("tenant_id","option_id")
);
--> statement-breakpoint
CREATE TABLE "chapters" (
	"tenant_id" uuid NOT NULL,
	"chapter_id" bigint DEFAULT gh_next_id('chapters') NOT NULL,
	"name" text NOT NULL,
	"region" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "chapters_tenant_id_chapter_id_pk" PRIMARY KEY("tenant_id","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "membership_fee_items" (
	"tenant_id" uuid NOT NULL,
	"item_id" bigint DEFAULT gh_next_id('membership_fee_items') NOT NULL,
	"membership_id" bigint NOT NULL,
	"fee_id" integer,
	"name" text NOT NULL,
	"bill_frequency_type_id" integer NOT NULL,
	"original_price" bigint NOT NULL,
	"price" bigint NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"bill_frequency" integer DEFAULT 1 NOT NULL,
	"per_bill_amount" bigint DEFAULT 0 NOT NULL,
	"is_excluded_from_discounts" boolean DEFAULT false NOT NULL,
	"is_collected_with_first_payment" boolean DEFAULT false NOT NULL,
	"revenue_account" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_fee_items_tenant_id_item_id_pk" PRIMARY KEY("tenant_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "membership_fees" (
	"tenant_id" uuid NOT NULL,
	"fee_price_id" bigint DEFAULT gh_next_id('membership_fees') NOT NULL,
	"membership_type_id" bigint NOT NULL,
	"fee_id" integer NOT NULL,
	"name" text NOT NULL,
	"membership_level_id" bigint,
	"chapter_id" bigint,
	"original_price" bigint DEFAULT 0 NOT NULL,
	"bill_frequency_type_id" integer DEFAULT 12 NOT NULL,
	"per_bill_amount" bigint,
	"quantity" integer,
	"is_excluded_from_discounts" boolean DEFAULT false NOT NULL,
	"is_collected_with_first_payment" boolean DEFAULT false NOT NULL,
	"unit_formulas" jsonb,
	"revenue_account" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "membership_fees_tenant_id_fee_price_id_pk" PRIMARY KEY("tenant_id","fee_price_id")
);
--> statement-breakpoint
CREATE TABLE "membership_history" (
	"tenant_id" uuid NOT NULL,
	"history_id" bigint DEFAULT gh_next_id('membership_history') NOT NULL,
	"membership_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"changed_on" date NOT NULL,
	"event" text NOT NULL,
	"reason" text,
	"changed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_history_tenant_id_history_id_pk" PRIMARY KEY("tenant_id","history_id")
);
--> statement-breakpoint
CREATE TABLE "membership_invoices" (
	"tenant_id" uuid NOT NULL,
	"membership_invoice_id" bigint DEFAULT gh_next_id('membership_invoices') NOT NULL,
	"membership_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"term_start" date NOT NULL,
	"term_end" date NOT NULL,
	"invoice_id" bigint,
	"amount" bigint NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"charge_attempts" integer DEFAULT 0 NOT NULL,
	"next_charge_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_invoices_tenant_id_membership_invoice_id_pk" PRIMARY KEY("tenant_id","membership_invoice_id")
);
--> statement-breakpoint
CREATE TABLE "membership_levels" (
	"tenant_id" uuid NOT NULL,
	"membership_level_id" bigint DEFAULT gh_next_id('membership_levels') NOT NULL,
	"membership_type_id" bigint NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer,
	"max_secondary_members" integer,
	"level_field_values" text,
	"min_units" integer,
	"max_units" integer,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "membership_levels_tenant_id_membership_level_id_pk" PRIMARY KEY("tenant_id","membership_level_id")
);
--> statement-breakpoint
CREATE TABLE "membership_types" (
	"tenant_id" uuid NOT NULL,
	"membership_type_id" bigint DEFAULT gh_next_id('membership_types') NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_organization" boolean DEFAULT false NOT NULL,
	"requires_approval" boolean DEFAULT false NOT NULL,
	"term_kind" text DEFAULT 'anniversary' NOT NULL,
	"duration_months" integer DEFAULT 12 NOT NULL,
	"calendar_start_month" integer,
	"proration_rule" text,
	"cutoff_days" integer,
	"grace_days" integer DEFAULT 30 NOT NULL,
	"renewal_days_before" integer DEFAULT 30 NOT NULL,
	"renewal_after_gap" text,
	"round_to_nearest_ones" boolean DEFAULT false NOT NULL,
	"formula_based_pricing" boolean DEFAULT false NOT NULL,
	"has_level_pricing" boolean DEFAULT false NOT NULL,
	"has_chapter_pricing" boolean DEFAULT false NOT NULL,
	"level_selection_custom_field_id" bigint,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "membership_types_tenant_id_membership_type_id_pk" PRIMARY KEY("tenant_id","membership_type_id")
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"tenant_id" uuid NOT NULL,
	"membership_id" bigint DEFAULT gh_next_id('memberships') NOT NULL,
	"contact_id" bigint NOT NULL,
	"contact_name" text NOT NULL,
	"name" text NOT NULL,
	"membership_type_id" bigint NOT NULL,
	"membership_level_id" bigint,
	"chapter_id" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_date" date NOT NULL,
	"join_date" date NOT NULL,
	"term_start" date,
	"term_end" date,
	"bill_frequency_type_id" integer DEFAULT 12 NOT NULL,
	"term_total" bigint DEFAULT 0 NOT NULL,
	"units" text,
	"auto_pay" boolean DEFAULT false NOT NULL,
	"auto_pay_failures" integer DEFAULT 0 NOT NULL,
	"drop_reason" text,
	"notes" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "memberships_tenant_id_membership_id_pk" PRIMARY KEY("tenant_id","membership_id")
);
--> statement-breakpoint
ALTER TABLE "bill_frequency_options" ADD CONSTRAINT "bill_frequency_options_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_fee_items" ADD CONSTRAINT "membership_fee_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_fees" ADD CONSTRAINT "membership_fees_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_history" ADD CONSTRAINT "membership_history_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_invoices" ADD CONSTRAINT "membership_invoices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_levels" ADD CONSTRAINT "membership_levels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_types" ADD CONSTRAINT "membership_types_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bill_frequency_options_type_idx" ON "bill_frequency_options" USING btree ("tenant_id","membership_type_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_key" ON "membership_fee_items" USING btree ("tenant_id","item_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_name" ON "membership_fee_items" USING btree ("tenant_id","name","item_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_price" ON "membership_fee_items" USING btree ("tenant_id","price","item_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_membership_id" ON "membership_fee_items" USING btree ("tenant_id","membership_id","item_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_membership_id_name" ON "membership_fee_items" USING btree ("tenant_id","membership_id","name","item_id");--> statement-breakpoint
CREATE INDEX "membership_fee_items_by_membership_id_price" ON "membership_fee_items" USING btree ("tenant_id","membership_id","price","item_id");--> statement-breakpoint
CREATE INDEX "membership_fees_type_idx" ON "membership_fees" USING btree ("tenant_id","membership_type_id");--> statement-breakpoint
CREATE INDEX "membership_history_by_key" ON "membership_history" USING btree ("tenant_id","history_id");--> statement-breakpoint
CREATE INDEX "membership_history_by_changed_on" ON "membership_history" USING btree ("tenant_id","changed_on","history_id");--> statement-breakpoint
CREATE INDEX "membership_history_by_membership_id" ON "membership_history" USING btree ("tenant_id","membership_id","history_id");--> statement-breakpoint
CREATE INDEX "membership_history_by_membership_id_changed_on" ON "membership_history" USING btree ("tenant_id","membership_id","changed_on","history_id");--> statement-breakpoint
CREATE INDEX "membership_history_contact_idx" ON "membership_history" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "membership_history_changed_idx" ON "membership_history" USING btree ("tenant_id","to_status","changed_on");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_invoices_term_key" ON "membership_invoices" USING btree ("tenant_id","membership_id","kind","term_start");--> statement-breakpoint
CREATE INDEX "membership_invoices_invoice_idx" ON "membership_invoices" USING btree ("tenant_id","invoice_id");--> statement-breakpoint
CREATE INDEX "membership_levels_type_idx" ON "membership_levels" USING btree ("tenant_id","membership_type_id");--> statement-breakpoint
CREATE INDEX "memberships_by_key" ON "memberships" USING btree ("tenant_id","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_name" ON "memberships" USING btree ("tenant_id","contact_name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_name" ON "memberships" USING btree ("tenant_id","name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status" ON "memberships" USING btree ("tenant_id","status","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_term_end" ON "memberships" USING btree ("tenant_id","term_end","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_term_start" ON "memberships" USING btree ("tenant_id","term_start","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_join_date" ON "memberships" USING btree ("tenant_id","join_date","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_term_total" ON "memberships" USING btree ("tenant_id","term_total","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_contact_name" ON "memberships" USING btree ("tenant_id","status","contact_name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_name" ON "memberships" USING btree ("tenant_id","status","name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_term_end" ON "memberships" USING btree ("tenant_id","status","term_end","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_term_start" ON "memberships" USING btree ("tenant_id","status","term_start","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_join_date" ON "memberships" USING btree ("tenant_id","status","join_date","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_status_term_total" ON "memberships" USING btree ("tenant_id","status","term_total","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id" ON "memberships" USING btree ("tenant_id","contact_id","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_contact_name" ON "memberships" USING btree ("tenant_id","contact_id","contact_name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_name" ON "memberships" USING btree ("tenant_id","contact_id","name","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_status" ON "memberships" USING btree ("tenant_id","contact_id","status","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_term_end" ON "memberships" USING btree ("tenant_id","contact_id","term_end","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_term_start" ON "memberships" USING btree ("tenant_id","contact_id","term_start","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_join_date" ON "memberships" USING btree ("tenant_id","contact_id","join_date","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_by_contact_id_term_total" ON "memberships" USING btree ("tenant_id","contact_id","term_total","membership_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_contact_idx" ON "memberships" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "memberships_status_term_end_idx" ON "memberships" USING btree ("tenant_id","status","term_end") WHERE not is_deleted;