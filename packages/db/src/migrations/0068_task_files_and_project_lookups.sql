ALTER TABLE "files" ADD COLUMN "task_id" bigint;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "project_id" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "related_event_id" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "related_membership_type_id" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "related_event_name" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "related_membership_type_name" text;--> statement-breakpoint
CREATE INDEX "files_task_idx" ON "files" USING btree ("tenant_id","task_id","name") WHERE task_id is not null and not is_deleted;--> statement-breakpoint
CREATE INDEX "files_project_idx" ON "files" USING btree ("tenant_id","project_id","name") WHERE project_id is not null and not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_event_idx" ON "projects" USING btree ("tenant_id","related_event_id");--> statement-breakpoint
CREATE INDEX "projects_membership_type_idx" ON "projects" USING btree ("tenant_id","related_membership_type_id");