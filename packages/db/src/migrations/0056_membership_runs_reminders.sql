CREATE TABLE "membership_reminders" (
	"tenant_id" uuid NOT NULL,
	"membership_id" bigint NOT NULL,
	"term_end" date NOT NULL,
	"kind" text NOT NULL,
	"sent_on" date NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_reminders_tenant_id_membership_id_term_end_kind_pk" PRIMARY KEY("tenant_id","membership_id","term_end","kind")
);
--> statement-breakpoint
CREATE TABLE "membership_renewal_runs" (
	"tenant_id" uuid NOT NULL,
	"run_id" bigint DEFAULT gh_next_id('membership_renewal_runs') NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"run_day" date NOT NULL,
	"started_by" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"invoiced" integer DEFAULT 0 NOT NULL,
	"charged" integer DEFAULT 0 NOT NULL,
	"moved" integer DEFAULT 0 NOT NULL,
	"reminded" integer DEFAULT 0 NOT NULL,
	"error" text,
	CONSTRAINT "membership_renewal_runs_tenant_id_run_id_pk" PRIMARY KEY("tenant_id","run_id")
);
--> statement-breakpoint
ALTER TABLE "membership_types" ADD COLUMN "reminder_days_before" integer;--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD CONSTRAINT "membership_reminders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_renewal_runs" ADD CONSTRAINT "membership_renewal_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;