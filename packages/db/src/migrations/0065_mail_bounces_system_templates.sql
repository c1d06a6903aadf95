CREATE TABLE "mail_bounces" (
	"tenant_id" uuid NOT NULL,
	"bounce_id" bigint DEFAULT gh_next_id('mail_bounces') NOT NULL,
	"recipient_id" bigint,
	"mailing_id" bigint,
	"contact_id" bigint,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"status" text,
	"action" text,
	"diagnostic" text,
	"reporting_mta" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_bounces_tenant_id_bounce_id_pk" PRIMARY KEY("tenant_id","bounce_id")
);
--> statement-breakpoint
CREATE TABLE "system_templates" (
	"tenant_id" uuid NOT NULL,
	"template_key" text NOT NULL,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"updated_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_templates_tenant_id_template_key_pk" PRIMARY KEY("tenant_id","template_key")
);
--> statement-breakpoint
ALTER TABLE "mail_bounces" ADD CONSTRAINT "mail_bounces_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_templates" ADD CONSTRAINT "system_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_bounces_email_idx" ON "mail_bounces" USING btree ("tenant_id","email","created_at");