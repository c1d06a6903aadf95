CREATE TABLE "email_templates" (
	"tenant_id" uuid NOT NULL,
	"template_id" bigint DEFAULT gh_next_id('email_templates') NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'template' NOT NULL,
	"purpose" text DEFAULT 'general' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body_html" text,
	"design_json" jsonb,
	"is_archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "email_templates_tenant_id_template_id_pk" PRIMARY KEY("tenant_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "mail_suppressions" (
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_suppressions_tenant_id_email_pk" PRIMARY KEY("tenant_id","email")
);
--> statement-breakpoint
CREATE TABLE "mailing_recipients" (
	"tenant_id" uuid NOT NULL,
	"recipient_id" bigint DEFAULT gh_next_id('mailing_recipients') NOT NULL,
	"mailing_id" bigint,
	"subject" text,
	"contact_id" bigint,
	"email" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"token" text NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_recipients_tenant_id_recipient_id_pk" PRIMARY KEY("tenant_id","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"tenant_id" uuid NOT NULL,
	"mailing_id" bigint DEFAULT gh_next_id('mailings') NOT NULL,
	"name" text NOT NULL,
	"template_id" bigint,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"audience" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by" bigint,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailings_tenant_id_mailing_id_pk" PRIMARY KEY("tenant_id","mailing_id")
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"tenant_id" uuid NOT NULL,
	"signature_id" bigint DEFAULT gh_next_id('signatures') NOT NULL,
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"signature_html" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signatures_tenant_id_signature_id_pk" PRIMARY KEY("tenant_id","signature_id")
);
--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_suppressions" ADD CONSTRAINT "mail_suppressions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_recipients" ADD CONSTRAINT "mailing_recipients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_templates_name_idx" ON "email_templates" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_recipients_email_idx" ON "mailing_recipients" USING btree ("tenant_id","mailing_id","email");--> statement-breakpoint
CREATE INDEX "mailing_recipients_status_idx" ON "mailing_recipients" USING btree ("tenant_id","mailing_id","status","recipient_id");--> statement-breakpoint
CREATE INDEX "mailing_recipients_contact_idx" ON "mailing_recipients" USING btree ("tenant_id","contact_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_recipients_token_idx" ON "mailing_recipients" USING btree ("tenant_id","token");--> statement-breakpoint
CREATE INDEX "mailings_created_idx" ON "mailings" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "signatures_user_idx" ON "signatures" USING btree ("tenant_id","user_id","name");