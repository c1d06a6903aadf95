CREATE TABLE "event_member_feeds" (
	"tenant_id" uuid NOT NULL,
	"contact_id" bigint NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_member_feeds_tenant_id_contact_id_pk" PRIMARY KEY("tenant_id","contact_id")
);
--> statement-breakpoint
ALTER TABLE "event_member_feeds" ADD CONSTRAINT "event_member_feeds_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_member_feeds_token_idx" ON "event_member_feeds" USING btree ("tenant_id","token");