CREATE TABLE "list_counts" (
	"tenant_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_counts_tenant_id_table_name_facet_value_id_pk" PRIMARY KEY("tenant_id","table_name","facet","value","id")
);
--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;