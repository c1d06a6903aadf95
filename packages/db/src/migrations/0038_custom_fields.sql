CREATE TABLE "custom_field_values" (
	"tenant_id" uuid NOT NULL,
	"field_id" bigint NOT NULL,
	"record_id" bigint NOT NULL,
	"text_value" text,
	"number_value" numeric,
	"date_value" date,
	"datetime_value" timestamp with time zone,
	"bool_value" boolean,
	"choice_id" bigint,
	"choice_ids" bigint[],
	"file_value" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_field_values_tenant_id_field_id_record_id_pk" PRIMARY KEY("tenant_id","field_id","record_id")
);
--> statement-breakpoint
CREATE TABLE "custom_fields" (
	"tenant_id" uuid NOT NULL,
	"custom_field_id" bigint DEFAULT gh_next_id('custom_fields') NOT NULL,
	"entity" text NOT NULL,
	"name" text NOT NULL,
	"help_text" text,
	"data_type_id" integer NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"default_value" jsonb,
	"page_number" integer DEFAULT 1 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"visibility" text DEFAULT 'staff' NOT NULL,
	"in_directory" boolean DEFAULT false NOT NULL,
	"searchable" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"choices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_fields_tenant_id_custom_field_id_pk" PRIMARY KEY("tenant_id","custom_field_id")
);
--> statement-breakpoint
ALTER TABLE "custom_field_values" ADD CONSTRAINT "custom_field_values_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_field_values_record_idx" ON "custom_field_values" USING btree ("tenant_id","record_id");--> statement-breakpoint
CREATE INDEX "custom_field_values_choice_idx" ON "custom_field_values" USING btree ("tenant_id","field_id","choice_id","record_id") WHERE choice_id is not null;--> statement-breakpoint
CREATE INDEX "custom_field_values_date_idx" ON "custom_field_values" USING btree ("tenant_id","field_id","date_value","record_id") WHERE date_value is not null;--> statement-breakpoint
CREATE INDEX "custom_field_values_datetime_idx" ON "custom_field_values" USING btree ("tenant_id","field_id","datetime_value","record_id") WHERE datetime_value is not null;--> statement-breakpoint
CREATE INDEX "custom_field_values_number_idx" ON "custom_field_values" USING btree ("tenant_id","field_id","number_value","record_id") WHERE number_value is not null;--> statement-breakpoint
CREATE INDEX "custom_field_values_text_idx" ON "custom_field_values" USING btree ("tenant_id","field_id",lower(left("text_value", 200)),"record_id") WHERE text_value is not null;--> statement-breakpoint
CREATE INDEX "custom_field_values_choices_idx" ON "custom_field_values" USING gin ("choice_ids") WHERE choice_ids is not null;--> statement-breakpoint
CREATE INDEX "custom_fields_entity_idx" ON "custom_fields" USING btree ("tenant_id","entity","page_number","sort_order");