CREATE TABLE "certification_programmes" (
	"tenant_id" uuid NOT NULL,
	"programme_id" bigint DEFAULT gh_next_id('certification_programmes') NOT NULL,
	"name" text NOT NULL,
	"required_credits" integer NOT NULL,
	"period_months" integer NOT NULL,
	"staff_only" boolean DEFAULT false NOT NULL,
	"description" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "certification_programmes_tenant_id_programme_id_pk" PRIMARY KEY("tenant_id","programme_id")
);
--> statement-breakpoint
CREATE TABLE "certification_registrations" (
	"tenant_id" uuid NOT NULL,
	"certification_registration_id" bigint DEFAULT gh_next_id('certification_registrations') NOT NULL,
	"programme_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"required_credits" integer NOT NULL,
	"credits_earned" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'in-progress' NOT NULL,
	"completed_at" timestamp with time zone,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "certification_registrations_tenant_id_certification_registration_id_pk" PRIMARY KEY("tenant_id","certification_registration_id")
);
--> statement-breakpoint
ALTER TABLE "certification_programmes" ADD CONSTRAINT "certification_programmes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_registrations" ADD CONSTRAINT "certification_registrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certification_registrations_contact_idx" ON "certification_registrations" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "certification_registrations_programme_idx" ON "certification_registrations" USING btree ("tenant_id","programme_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certification_registrations_once_idx" ON "certification_registrations" USING btree ("tenant_id","programme_id","contact_id") WHERE not is_deleted;