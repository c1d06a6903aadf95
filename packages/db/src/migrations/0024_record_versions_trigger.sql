-- Record versions (decision 0095): every update of a versioned record, whoever makes it (the generic screens, an
-- import, a merge, a script), makes its version one more, so a save against the version a user loaded can tell
-- that someone else changed the record since.
CREATE OR REPLACE FUNCTION gh_bump_record_version() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A table with a `version` column (recordVersion() in its Drizzle schema) calls this once in a migration.
CREATE OR REPLACE FUNCTION gh_enable_record_version(tbl regclass) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS record_version ON %s', tbl);
  EXECUTE format(
    'CREATE TRIGGER record_version BEFORE UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION gh_bump_record_version()',
    tbl);
END
$$;
--> statement-breakpoint
SELECT gh_enable_record_version('samples');
--> statement-breakpoint
SELECT gh_enable_record_version('contacts');
--> statement-breakpoint
SELECT gh_enable_record_version('contact_entries');
--> statement-breakpoint
SELECT gh_enable_record_version('contact_links');
--> statement-breakpoint
SELECT gh_enable_record_version('help_texts');
--> statement-breakpoint
SELECT gh_enable_record_version('tenants');
