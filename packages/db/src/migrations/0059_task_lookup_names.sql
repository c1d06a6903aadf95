ALTER TABLE "projects" ADD COLUMN "owner_name" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "related_contact_name" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "project_name" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "event_name" text;