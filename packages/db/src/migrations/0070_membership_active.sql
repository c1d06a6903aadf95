DROP VIEW "public"."user_directory";--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_tenant_id" uuid;--> statement-breakpoint
CREATE VIEW "public"."user_directory" WITH (security_invoker = true) AS (select tu.tenant_id, u.id as user_id, u.username, u.email, u.display_name, u.login_type, tu.role, (u.is_active and tu.is_active) as is_active, u.last_sign_in_at from tenant_users tu join users u on u.id = tu.user_id);