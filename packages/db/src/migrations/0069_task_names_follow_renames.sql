-- The names tasks and projects keep for their lists (decision 0180, amended) follow a rename of the record they
-- name, in the rename's own statement: a trigger on the named table updates the few rows that name it (through
-- their (tenant_id, <id>) indexes), whatever renamed it (the form, an inline edit, an import, a merge).
-- SECURITY INVOKER: it runs under the renaming transaction's tenant scope and row-level security.
CREATE OR REPLACE FUNCTION gh_task_names_contact_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tasks SET contact_name = NEW.display_name
   WHERE tenant_id = NEW.tenant_id AND contact_id = NEW.contact_id
     AND contact_name IS DISTINCT FROM NEW.display_name;
  UPDATE projects SET related_contact_name = NEW.display_name
   WHERE tenant_id = NEW.tenant_id AND related_contact_id = NEW.contact_id
     AND related_contact_name IS DISTINCT FROM NEW.display_name;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS task_names_renamed ON contacts;
--> statement-breakpoint
CREATE TRIGGER task_names_renamed AFTER UPDATE OF display_name ON contacts FOR EACH ROW
  WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name) EXECUTE FUNCTION gh_task_names_contact_renamed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_task_names_event_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tasks SET event_name = NEW.name
   WHERE tenant_id = NEW.tenant_id AND event_id = NEW.event_id AND event_name IS DISTINCT FROM NEW.name;
  UPDATE projects SET related_event_name = NEW.name
   WHERE tenant_id = NEW.tenant_id AND related_event_id = NEW.event_id
     AND related_event_name IS DISTINCT FROM NEW.name;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS task_names_renamed ON events;
--> statement-breakpoint
CREATE TRIGGER task_names_renamed AFTER UPDATE OF name ON events FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION gh_task_names_event_renamed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_task_names_membership_type_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET related_membership_type_name = NEW.name
   WHERE tenant_id = NEW.tenant_id AND related_membership_type_id = NEW.membership_type_id
     AND related_membership_type_name IS DISTINCT FROM NEW.name;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS task_names_renamed ON membership_types;
--> statement-breakpoint
CREATE TRIGGER task_names_renamed AFTER UPDATE OF name ON membership_types FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION gh_task_names_membership_type_renamed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS record_version ON projects;
--> statement-breakpoint
CREATE TRIGGER record_version BEFORE UPDATE ON projects FOR EACH ROW
  EXECUTE FUNCTION gh_bump_record_version_except('progress', 'task_count', 'open_task_count', 'owner_name',
    'related_contact_name', 'related_event_name', 'related_membership_type_name');
