CREATE TABLE "signup_requests" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"trial_key" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"provisioned_tenant_id" uuid,
	"administrator_user_id" bigint
);
--> statement-breakpoint
ALTER TABLE "signup_requests" ADD CONSTRAINT "signup_requests_provisioned_tenant_id_tenants_id_fk" FOREIGN KEY ("provisioned_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_requests_email_idx" ON "signup_requests" USING btree (lower("email"),"created_at");--> statement-breakpoint
CREATE INDEX "signup_requests_ip_idx" ON "signup_requests" USING btree ("ip","created_at");