CREATE TABLE "report_schedules" (
	"tenant_id" uuid NOT NULL,
	"schedule_id" bigint DEFAULT gh_next_id('report_schedules') NOT NULL,
	"saved_report_id" bigint NOT NULL,
	"owner_user_id" bigint NOT NULL,
	"frequency" text NOT NULL,
	"weekday" integer,
	"day_of_month" integer,
	"user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_sent_on" date,
	"last_outcome" text,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedules_tenant_id_schedule_id_pk" PRIMARY KEY("tenant_id","schedule_id")
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;