-- The names the tasks and projects lists show instead of ids (decision 0180, amended): kept by writes of other
-- records (a project renamed renames its tasks' project), so they do not make a record stale (decision 0095).
DROP TRIGGER IF EXISTS record_version ON projects;
--> statement-breakpoint
CREATE TRIGGER record_version BEFORE UPDATE ON projects FOR EACH ROW
  EXECUTE FUNCTION gh_bump_record_version_except('progress', 'task_count', 'open_task_count', 'owner_name',
    'related_contact_name');
--> statement-breakpoint
DROP TRIGGER IF EXISTS record_version ON tasks;
--> statement-breakpoint
CREATE TRIGGER record_version BEFORE UPDATE ON tasks FOR EACH ROW
  EXECUTE FUNCTION gh_bump_record_version_except('assignee_names', 'checklist_done', 'checklist_total', 'sort_order',
    'project_name', 'contact_name', 'event_name');
--> statement-breakpoint
UPDATE projects p SET
  owner_name = (SELECT u.display_name FROM tenant_users tu JOIN users u ON u.id = tu.user_id
                 WHERE tu.tenant_id = p.tenant_id AND tu.user_id = p.owner_user_id),
  related_contact_name = (SELECT c.display_name FROM contacts c
                           WHERE c.tenant_id = p.tenant_id AND c.contact_id = p.related_contact_id);
--> statement-breakpoint
UPDATE tasks t SET
  project_name = (SELECT p.name FROM projects p WHERE p.tenant_id = t.tenant_id AND p.project_id = t.project_id),
  contact_name = (SELECT c.display_name FROM contacts c WHERE c.tenant_id = t.tenant_id AND c.contact_id = t.contact_id),
  event_name = (SELECT e.name FROM events e WHERE e.tenant_id = t.tenant_id AND e.event_id = t.event_id);
