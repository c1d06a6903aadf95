CREATE TABLE "daily_runs" (
	"kind" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_runs_kind_tenant_id_day_pk" PRIMARY KEY("kind","tenant_id","day")
);
--> statement-breakpoint
ALTER TABLE "daily_runs" ADD CONSTRAINT "daily_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;