CREATE TABLE "membership_members" (
	"tenant_id" uuid NOT NULL,
	"membership_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"contact_name" text NOT NULL,
	"added_on" date NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_members_tenant_id_membership_id_contact_id_pk" PRIMARY KEY("tenant_id","membership_id","contact_id")
);
--> statement-breakpoint
ALTER TABLE "membership_invoices" ADD COLUMN "run_id" bigint;--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD COLUMN "body" text;--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "membership_types" ADD COLUMN "reminder_days_after" integer;--> statement-breakpoint
ALTER TABLE "membership_members" ADD CONSTRAINT "membership_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_members_contact_idx" ON "membership_members" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "membership_invoices_run_idx" ON "membership_invoices" USING btree ("tenant_id","run_id") WHERE run_id is not null;--> statement-breakpoint
CREATE INDEX "membership_reminders_unmailed_idx" ON "membership_reminders" USING btree ("tenant_id") WHERE mailed_at is null;