CREATE TABLE "project_template_tasks" (
	"tenant_id" uuid NOT NULL,
	"template_task_id" bigint DEFAULT gh_next_id('project_template_tasks') NOT NULL,
	"template_id" bigint NOT NULL,
	"title" text NOT NULL,
	"offset_days" integer DEFAULT 0 NOT NULL,
	"due_time" time,
	"priority" text,
	"checklist" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "project_template_tasks_tenant_id_template_task_id_pk" PRIMARY KEY("tenant_id","template_task_id")
);
--> statement-breakpoint
CREATE TABLE "project_templates" (
	"tenant_id" uuid NOT NULL,
	"template_id" bigint DEFAULT gh_next_id('project_templates') NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"result_type" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "project_templates_tenant_id_template_id_pk" PRIMARY KEY("tenant_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"tenant_id" uuid NOT NULL,
	"project_id" bigint DEFAULT gh_next_id('projects') NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"owner_user_id" bigint,
	"status" text DEFAULT 'planned' NOT NULL,
	"start_date" date,
	"due_date" date,
	"result_type" text,
	"related_type" text,
	"related_contact_id" bigint,
	"related_name" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"task_count" integer DEFAULT 0 NOT NULL,
	"open_task_count" integer DEFAULT 0 NOT NULL,
	"template_name" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "projects_tenant_id_project_id_pk" PRIMARY KEY("tenant_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "task_assignees" (
	"tenant_id" uuid NOT NULL,
	"assignment_id" bigint DEFAULT gh_next_id('task_assignees') NOT NULL,
	"task_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_assignees_tenant_id_assignment_id_pk" PRIMARY KEY("tenant_id","assignment_id")
);
--> statement-breakpoint
CREATE TABLE "task_checklist_items" (
	"tenant_id" uuid NOT NULL,
	"item_id" bigint DEFAULT gh_next_id('task_checklist_items') NOT NULL,
	"task_id" bigint NOT NULL,
	"title" text NOT NULL,
	"is_done" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "task_checklist_items_tenant_id_item_id_pk" PRIMARY KEY("tenant_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "task_comments" (
	"tenant_id" uuid NOT NULL,
	"comment_id" bigint DEFAULT gh_next_id('task_comments') NOT NULL,
	"task_id" bigint NOT NULL,
	"body" text NOT NULL,
	"author_user_id" bigint,
	"author_name" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_comments_tenant_id_comment_id_pk" PRIMARY KEY("tenant_id","comment_id")
);
--> statement-breakpoint
CREATE TABLE "task_dependencies" (
	"tenant_id" uuid NOT NULL,
	"dependency_id" bigint DEFAULT gh_next_id('task_dependencies') NOT NULL,
	"task_id" bigint NOT NULL,
	"depends_on_task_id" bigint NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_dependencies_tenant_id_dependency_id_pk" PRIMARY KEY("tenant_id","dependency_id")
);
--> statement-breakpoint
CREATE TABLE "task_reminders" (
	"tenant_id" uuid NOT NULL,
	"task_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_reminders_tenant_id_task_id_user_id_day_pk" PRIMARY KEY("tenant_id","task_id","user_id","day")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"tenant_id" uuid NOT NULL,
	"task_id" bigint DEFAULT gh_next_id('tasks') NOT NULL,
	"project_id" bigint,
	"title" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'todo' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"due_at" timestamp with time zone,
	"assignee_names" text,
	"contact_id" bigint,
	"event_id" bigint,
	"recurrence_frequency" text,
	"recurrence_interval" integer,
	"checklist_done" integer DEFAULT 0 NOT NULL,
	"checklist_total" integer DEFAULT 0 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"previous_task_id" bigint,
	"created_by" bigint,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "tasks_tenant_id_task_id_pk" PRIMARY KEY("tenant_id","task_id")
);
--> statement-breakpoint
ALTER TABLE "project_template_tasks" ADD CONSTRAINT "project_template_tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_templates" ADD CONSTRAINT "project_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_checklist_items" ADD CONSTRAINT "task_checklist_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reminders" ADD CONSTRAINT "task_reminders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_template_tasks_template_idx" ON "project_template_tasks" USING btree ("tenant_id","template_id");--> statement-breakpoint
CREATE INDEX "projects_by_key" ON "projects" USING btree ("tenant_id","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_name" ON "projects" USING btree ("tenant_id","name","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_status" ON "projects" USING btree ("tenant_id","status","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_due_date" ON "projects" USING btree ("tenant_id","due_date","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_progress" ON "projects" USING btree ("tenant_id","progress","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_status_name" ON "projects" USING btree ("tenant_id","status","name","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_status_due_date" ON "projects" USING btree ("tenant_id","status","due_date","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_by_status_progress" ON "projects" USING btree ("tenant_id","status","progress","project_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_contact_idx" ON "projects" USING btree ("tenant_id","related_contact_id");--> statement-breakpoint
CREATE INDEX "task_assignees_by_key" ON "task_assignees" USING btree ("tenant_id","assignment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_assignees_by_task_id" ON "task_assignees" USING btree ("tenant_id","task_id","assignment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_assignees_user_idx" ON "task_assignees" USING btree ("tenant_id","user_id","task_id");--> statement-breakpoint
CREATE INDEX "task_checklist_items_by_key" ON "task_checklist_items" USING btree ("tenant_id","item_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_checklist_items_by_sort_order" ON "task_checklist_items" USING btree ("tenant_id","sort_order","item_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_checklist_items_by_task_id" ON "task_checklist_items" USING btree ("tenant_id","task_id","item_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_checklist_items_by_task_id_sort_order" ON "task_checklist_items" USING btree ("tenant_id","task_id","sort_order","item_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_comments_by_key" ON "task_comments" USING btree ("tenant_id","comment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_comments_by_created_at" ON "task_comments" USING btree ("tenant_id","created_at","comment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_comments_by_task_id" ON "task_comments" USING btree ("tenant_id","task_id","comment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_comments_by_task_id_created_at" ON "task_comments" USING btree ("tenant_id","task_id","created_at","comment_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_dependencies_by_key" ON "task_dependencies" USING btree ("tenant_id","dependency_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_dependencies_by_task_id" ON "task_dependencies" USING btree ("tenant_id","task_id","dependency_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "task_dependencies_on_idx" ON "task_dependencies" USING btree ("tenant_id","depends_on_task_id");--> statement-breakpoint
CREATE INDEX "tasks_by_key" ON "tasks" USING btree ("tenant_id","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_title" ON "tasks" USING btree ("tenant_id","title","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_status" ON "tasks" USING btree ("tenant_id","status","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_priority" ON "tasks" USING btree ("tenant_id","priority","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_due_at" ON "tasks" USING btree ("tenant_id","due_at","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_status_title" ON "tasks" USING btree ("tenant_id","status","title","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_status_priority" ON "tasks" USING btree ("tenant_id","status","priority","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_status_due_at" ON "tasks" USING btree ("tenant_id","status","due_at","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_project_id" ON "tasks" USING btree ("tenant_id","project_id","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_project_id_title" ON "tasks" USING btree ("tenant_id","project_id","title","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_project_id_status" ON "tasks" USING btree ("tenant_id","project_id","status","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_project_id_priority" ON "tasks" USING btree ("tenant_id","project_id","priority","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_by_project_id_due_at" ON "tasks" USING btree ("tenant_id","project_id","due_at","task_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_contact_idx" ON "tasks" USING btree ("tenant_id","contact_id");--> statement-breakpoint
CREATE INDEX "tasks_event_idx" ON "tasks" USING btree ("tenant_id","event_id");--> statement-breakpoint
CREATE INDEX "tasks_board_idx" ON "tasks" USING btree ("tenant_id","project_id","status","sort_order");--> statement-breakpoint
CREATE INDEX "tasks_previous_idx" ON "tasks" USING btree ("tenant_id","previous_task_id");