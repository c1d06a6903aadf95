-- Record ids numbered per association (decision 0071). Each tenant has its own sequence per table,
-- gh_ids_<tenant without dashes>_<table>, owned by the migrating role (the app role may only draw from it). A
-- sequence holds no lock until commit, so parallel writers of one association never wait on each other for an id,
-- and an id tells nothing of what other associations create (one shared sequence did).
CREATE TABLE IF NOT EXISTS gh_tenant_id_tables (
  table_name text PRIMARY KEY,
  column_name text NOT NULL
);
--> statement-breakpoint
-- The catalogue of numbered tables is read by the app role (tenant creation) and changed only by migrations.
GRANT SELECT ON gh_tenant_id_tables TO guildhall_app;
--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE ON gh_tenant_id_tables FROM guildhall_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_id_sequence_name(p_tenant uuid, p_table text) RETURNS text
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT 'gh_ids_' || replace(p_tenant::text, '-', '') || '_' || p_table $$;
--> statement-breakpoint
-- Creates a tenant's sequence of a table if it is missing, starting after the highest id the tenant has there.
CREATE OR REPLACE FUNCTION gh_create_id_sequence(p_tenant uuid, p_table text) RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  seq text := gh_id_sequence_name(p_tenant, p_table);
  col text;
  highest bigint;
BEGIN
  SELECT column_name INTO col FROM gh_tenant_id_tables WHERE table_name = p_table;
  IF col IS NULL THEN
    RAISE EXCEPTION 'gh_next_id: % does not draw per-tenant ids', p_table;
  END IF;
  IF to_regclass(seq) IS NULL THEN
    EXECUTE format('SELECT max(%I) FROM %I WHERE tenant_id = $1', col, p_table) INTO highest USING p_tenant;
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START WITH %s', seq, coalesce(highest, 0) + 1);
    EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %I TO guildhall_app', seq);
  END IF;
  RETURN seq;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_create_id_sequence(uuid, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_create_id_sequence(uuid, text) TO guildhall_app;
--> statement-breakpoint
-- The column default of every numbered id: the next id of the transaction's tenant (app.tenant_id) in the table.
CREATE OR REPLACE FUNCTION gh_next_id(p_table text) RETURNS bigint
  LANGUAGE plpgsql
  AS $$
DECLARE
  tenant text := nullif(current_setting('app.tenant_id', true), '');
  seq text;
BEGIN
  IF tenant IS NULL THEN
    RAISE EXCEPTION 'gh_next_id(%): no tenant is set for this transaction', p_table;
  END IF;
  seq := gh_id_sequence_name(tenant::uuid, p_table);
  IF to_regclass(seq) IS NULL THEN
    seq := gh_create_id_sequence(tenant::uuid, p_table);
  END IF;
  RETURN nextval(seq::regclass);
END
$$;
--> statement-breakpoint
-- Reserves n consecutive ids of a tenant in a table and answers the first (bulk loads that write ids themselves).
CREATE OR REPLACE FUNCTION gh_reserve_ids(p_tenant uuid, p_table text, n bigint) RETURNS bigint
  LANGUAGE plpgsql
  AS $$
DECLARE
  seq text := gh_create_id_sequence(p_tenant, p_table);
  last bigint;
BEGIN
  -- setval past the reserved block in one step: no other writer can draw inside it.
  EXECUTE format('SELECT setval(%L, nextval(%L) + $1 - 1)', seq, seq) INTO last USING n;
  RETURN last - n + 1;
END
$$;
--> statement-breakpoint
-- A new association gets its sequences when it is created, so its first writes never create one concurrently.
CREATE OR REPLACE FUNCTION gh_tenant_sequences() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT table_name FROM gh_tenant_id_tables LOOP
    PERFORM gh_create_id_sequence(NEW.id, t.table_name);
  END LOOP;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS gh_tenant_sequences ON tenants;
--> statement-breakpoint
CREATE TRIGGER gh_tenant_sequences AFTER INSERT ON tenants FOR EACH ROW EXECUTE FUNCTION gh_tenant_sequences();
--> statement-breakpoint
-- Registers a table's id column: every existing tenant gets its sequence, starting after its highest id.
CREATE OR REPLACE FUNCTION gh_enable_tenant_ids(p_table text, p_column text) RETURNS void
  LANGUAGE plpgsql
  AS $$
DECLARE
  t record;
BEGIN
  INSERT INTO gh_tenant_id_tables (table_name, column_name) VALUES (p_table, p_column)
    ON CONFLICT (table_name) DO UPDATE SET column_name = excluded.column_name;
  FOR t IN SELECT id FROM tenants LOOP
    PERFORM gh_create_id_sequence(t.id, p_table);
  END LOOP;
END
$$;
--> statement-breakpoint
SELECT gh_enable_tenant_ids('contacts', 'contact_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('contact_entries', 'entry_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('contact_links', 'link_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('payments', 'id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('refunds', 'id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('terms_of_use', 'id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('audit_log', 'id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('mail_outbox', 'id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('samples', 'sample_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('files', 'file_id');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('images', 'image_id');
