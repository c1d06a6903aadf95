CREATE TABLE "samples" (
	"tenant_id" uuid NOT NULL,
	"sample_id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "samples_sample_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"quantity" integer,
	"price" bigint,
	"total" bigint,
	"is_active" boolean DEFAULT true NOT NULL,
	"start_date" date,
	"happens_at" timestamp with time zone,
	"start_time" time,
	"phone" text,
	"website" text,
	"email" text,
	"status" text,
	"category" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"weekdays" integer DEFAULT 0 NOT NULL,
	"score_range" jsonb,
	"period" jsonb,
	"timezone" text,
	"owner_user_id" bigint,
	"notes" text,
	"is_draft" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_voided" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "samples_tenant_id_sample_id_pk" PRIMARY KEY("tenant_id","sample_id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"user_id" bigint,
	"error" text,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "report_favorites" (
	"tenant_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"report_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_favorites_tenant_id_user_id_report_id_pk" PRIMARY KEY("tenant_id","user_id","report_id")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text,
	"size" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	CONSTRAINT "stored_files_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "table_settings" (
	"tenant_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"screen_name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "table_settings_tenant_id_user_id_screen_name_pk" PRIMARY KEY("tenant_id","user_id","screen_name")
);
--> statement-breakpoint
CREATE TABLE "user_widget_settings" (
	"tenant_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"screen_name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_widget_settings_tenant_id_user_id_screen_name_pk" PRIMARY KEY("tenant_id","user_id","screen_name")
);
--> statement-breakpoint
ALTER TABLE "samples" ADD CONSTRAINT "samples_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_favorites" ADD CONSTRAINT "report_favorites_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_settings" ADD CONSTRAINT "table_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_widget_settings" ADD CONSTRAINT "user_widget_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "samples_name_idx" ON "samples" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "jobs_queued_idx" ON "jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE VIEW "public"."user_directory" WITH (security_invoker = true) AS (select tu.tenant_id, u.id as user_id, u.username, u.email, u.display_name, u.login_type, tu.role, u.is_active, u.last_sign_in_at from tenant_users tu join users u on u.id = tu.user_id);