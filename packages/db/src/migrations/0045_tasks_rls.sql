-- Row-level security, per-association ids and record versions of tasks and projects.
SELECT gh_enable_tenant_rls('projects');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('projects', 'project_id');
--> statement-breakpoint
-- A record's version counts the changes people make (decision 0095); the columns a write of another record keeps
-- (a project's progress, a task's assignee names and checklist counts, a card's place) do not make it stale.
CREATE OR REPLACE FUNCTION gh_bump_record_version_except() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF (to_jsonb(NEW) - TG_ARGV::text[] - 'version' - 'updated_at')
     IS DISTINCT FROM (to_jsonb(OLD) - TG_ARGV::text[] - 'version' - 'updated_at') THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER record_version BEFORE UPDATE ON projects FOR EACH ROW
  EXECUTE FUNCTION gh_bump_record_version_except('progress', 'task_count', 'open_task_count');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('tasks');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('tasks', 'task_id');
--> statement-breakpoint
CREATE TRIGGER record_version BEFORE UPDATE ON tasks FOR EACH ROW
  EXECUTE FUNCTION gh_bump_record_version_except('assignee_names', 'checklist_done', 'checklist_total', 'sort_order');
--> statement-breakpoint
-- A task's completion time: set when it becomes done, cleared when it is reopened, whoever writes it.
CREATE OR REPLACE FUNCTION gh_task_completed_at() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.status = 'done' THEN
    IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'done' THEN
      NEW.completed_at := coalesce(NEW.completed_at, now());
    END IF;
  ELSE
    NEW.completed_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER task_completed_at BEFORE INSERT OR UPDATE OF status ON tasks FOR EACH ROW
  EXECUTE FUNCTION gh_task_completed_at();
--> statement-breakpoint
SELECT gh_enable_tenant_rls('task_assignees');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('task_assignees', 'assignment_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('task_checklist_items');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('task_checklist_items', 'item_id');
--> statement-breakpoint
SELECT gh_enable_record_version('task_checklist_items');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('task_dependencies');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('task_dependencies', 'dependency_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('task_comments');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('task_comments', 'comment_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('project_templates');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('project_templates', 'template_id');
--> statement-breakpoint
SELECT gh_enable_record_version('project_templates');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('project_template_tasks');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('project_template_tasks', 'template_task_id');
--> statement-breakpoint
SELECT gh_enable_record_version('project_template_tasks');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('task_reminders');
