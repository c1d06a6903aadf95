CREATE TABLE "event_attendees" (
	"tenant_id" uuid NOT NULL,
	"attendee_id" bigint DEFAULT gh_next_id('event_attendees') NOT NULL,
	"event_id" bigint NOT NULL,
	"event_detail_id" bigint NOT NULL,
	"registration_id" bigint NOT NULL,
	"contact_id" bigint,
	"attendee_name" text NOT NULL,
	"attendee_email" text,
	"registration_type_id" bigint,
	"event_attendee_status_id" integer NOT NULL,
	"registered_attendees_count" integer DEFAULT 1 NOT NULL,
	"checked_in_at" timestamp with time zone,
	"check_in_code" text DEFAULT upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)) NOT NULL,
	"invoice_id" bigint,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"offer_expires_at" timestamp with time zone,
	"notes" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "event_attendees_tenant_id_attendee_id_pk" PRIMARY KEY("tenant_id","attendee_id")
);
--> statement-breakpoint
CREATE TABLE "event_categories" (
	"tenant_id" uuid NOT NULL,
	"category_id" bigint DEFAULT gh_next_id('event_categories') NOT NULL,
	"name" text NOT NULL,
	"color" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "event_categories_tenant_id_category_id_pk" PRIMARY KEY("tenant_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "event_details" (
	"tenant_id" uuid NOT NULL,
	"event_detail_id" bigint DEFAULT gh_next_id('event_details') NOT NULL,
	"event_id" bigint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"original_starts_at" timestamp with time zone,
	"is_exception" boolean DEFAULT false NOT NULL,
	"location" text,
	"online_url" text,
	"capacity" integer,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "event_details_tenant_id_event_detail_id_pk" PRIMARY KEY("tenant_id","event_detail_id")
);
--> statement-breakpoint
CREATE TABLE "event_registration_types" (
	"tenant_id" uuid NOT NULL,
	"registration_type_id" bigint DEFAULT gh_next_id('event_registration_types') NOT NULL,
	"event_id" bigint NOT NULL,
	"name" text NOT NULL,
	"member_price" bigint DEFAULT 0 NOT NULL,
	"non_member_price" bigint DEFAULT 0 NOT NULL,
	"early_bird_until" date,
	"early_bird_discount" bigint DEFAULT 0 NOT NULL,
	"capacity" integer,
	"members_only" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "event_registration_types_tenant_id_registration_type_id_pk" PRIMARY KEY("tenant_id","registration_type_id")
);
--> statement-breakpoint
CREATE TABLE "event_registrations" (
	"tenant_id" uuid NOT NULL,
	"registration_id" bigint DEFAULT gh_next_id('event_registrations') NOT NULL,
	"event_id" bigint NOT NULL,
	"event_detail_id" bigint NOT NULL,
	"contact_id" bigint,
	"invoice_id" bigint,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_registrations_tenant_id_registration_id_pk" PRIMARY KEY("tenant_id","registration_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"tenant_id" uuid NOT NULL,
	"event_id" bigint DEFAULT gh_next_id('events') NOT NULL,
	"name" text NOT NULL,
	"category_id" bigint,
	"status" text DEFAULT 'draft' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"timezone_id" text,
	"repeats" text DEFAULT 'none' NOT NULL,
	"repeat_until" date,
	"recurrence_rule" text,
	"location" text,
	"online_url" text,
	"capacity" integer,
	"waitlist_enabled" boolean DEFAULT true NOT NULL,
	"registration_open" boolean DEFAULT true NOT NULL,
	"full_refund_days" integer,
	"late_refund_percent" integer,
	"credit_hours" integer,
	"description" text,
	"hashed_event_id" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "events_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "event_attendees" ADD CONSTRAINT "event_attendees_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_categories" ADD CONSTRAINT "event_categories_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_details" ADD CONSTRAINT "event_details_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registration_types" ADD CONSTRAINT "event_registration_types_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_attendees_by_key" ON "event_attendees" USING btree ("tenant_id","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_attendee_name" ON "event_attendees" USING btree ("tenant_id","attendee_name","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_attendee_status_id" ON "event_attendees" USING btree ("tenant_id","event_attendee_status_id","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_created_at" ON "event_attendees" USING btree ("tenant_id","created_at","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_attendee_status_id_attendee_name" ON "event_attendees" USING btree ("tenant_id","event_attendee_status_id","attendee_name","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_attendee_status_id_created_at" ON "event_attendees" USING btree ("tenant_id","event_attendee_status_id","created_at","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_id" ON "event_attendees" USING btree ("tenant_id","event_id","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_id_attendee_name" ON "event_attendees" USING btree ("tenant_id","event_id","attendee_name","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_id_event_attendee_status_id" ON "event_attendees" USING btree ("tenant_id","event_id","event_attendee_status_id","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_by_event_id_created_at" ON "event_attendees" USING btree ("tenant_id","event_id","created_at","attendee_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_detail_idx" ON "event_attendees" USING btree ("tenant_id","event_detail_id","event_attendee_status_id");--> statement-breakpoint
CREATE INDEX "event_attendees_contact_idx" ON "event_attendees" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "event_attendees_registration_idx" ON "event_attendees" USING btree ("tenant_id","registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_attendees_code_idx" ON "event_attendees" USING btree ("tenant_id","check_in_code");--> statement-breakpoint
CREATE INDEX "event_details_by_key" ON "event_details" USING btree ("tenant_id","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_by_starts_at" ON "event_details" USING btree ("tenant_id","starts_at","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_by_status" ON "event_details" USING btree ("tenant_id","status","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_by_event_id" ON "event_details" USING btree ("tenant_id","event_id","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_by_event_id_starts_at" ON "event_details" USING btree ("tenant_id","event_id","starts_at","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_by_event_id_status" ON "event_details" USING btree ("tenant_id","event_id","status","event_detail_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_range_idx" ON "event_details" USING btree ("tenant_id","starts_at","ends_at") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_event_idx" ON "event_details" USING btree ("tenant_id","event_id","starts_at");--> statement-breakpoint
CREATE INDEX "event_registration_types_event_idx" ON "event_registration_types" USING btree ("tenant_id","event_id");--> statement-breakpoint
CREATE INDEX "event_registrations_contact_idx" ON "event_registrations" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "event_registrations_detail_idx" ON "event_registrations" USING btree ("tenant_id","event_detail_id");--> statement-breakpoint
CREATE INDEX "events_by_key" ON "events" USING btree ("tenant_id","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_name" ON "events" USING btree ("tenant_id","name","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_starts_at" ON "events" USING btree ("tenant_id","starts_at","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_status" ON "events" USING btree ("tenant_id","status","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_status_name" ON "events" USING btree ("tenant_id","status","name","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_status_starts_at" ON "events" USING btree ("tenant_id","status","starts_at","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_visibility" ON "events" USING btree ("tenant_id","visibility","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_visibility_name" ON "events" USING btree ("tenant_id","visibility","name","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_visibility_starts_at" ON "events" USING btree ("tenant_id","visibility","starts_at","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_by_visibility_status" ON "events" USING btree ("tenant_id","visibility","status","event_id") WHERE not is_deleted;--> statement-breakpoint
CREATE UNIQUE INDEX "events_hashed_idx" ON "events" USING btree ("tenant_id","hashed_event_id");--> statement-breakpoint
CREATE INDEX "events_category_idx" ON "events" USING btree ("tenant_id","category_id");