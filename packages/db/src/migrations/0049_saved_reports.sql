CREATE TABLE "report_pins" (
	"tenant_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"report_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_pins_tenant_id_user_id_report_id_pk" PRIMARY KEY("tenant_id","user_id","report_id")
);
--> statement-breakpoint
CREATE TABLE "saved_reports" (
	"tenant_id" uuid NOT NULL,
	"saved_report_id" bigint DEFAULT gh_next_id('saved_reports') NOT NULL,
	"owner_user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"resource" text NOT NULL,
	"definition" jsonb NOT NULL,
	"is_shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "saved_reports_tenant_id_saved_report_id_pk" PRIMARY KEY("tenant_id","saved_report_id")
);
--> statement-breakpoint
ALTER TABLE "report_pins" ADD CONSTRAINT "report_pins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_reports" ADD CONSTRAINT "saved_reports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;