-- Counted lists (decision 0103): the totals of a table's list (its live rows, and its rows by each field a named
-- filter tests) kept as rows of changes in list_counts by a statement trigger, in the writing transaction.
SELECT gh_enable_tenant_rls('list_counts');
--> statement-breakpoint
-- The statement trigger of a counted table. Arguments: the soft-delete column ('' when the table has none), then
-- the facet columns. It adds one row per association, facet and value the statement changed: +n for the live rows
-- after it, -n for those before it (an update that changes no counted column nets to nothing and writes nothing).
-- Rows of an association being deleted (the cascade of its tenant) are not counted: its counts go with it.
CREATE OR REPLACE FUNCTION gh_list_count_rows() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  live text := CASE WHEN TG_ARGV[0] = '' THEN 'true' ELSE format('not %I', TG_ARGV[0]) END;
  changed text;
  facets text := format('select tenant_id, %L as facet, %L as value, d from r', '', '');
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    facets := facets || format(' union all select tenant_id, %L, coalesce(%I::text, %L), d from r', TG_ARGV[i], TG_ARGV[i], '');
  END LOOP;
  changed := CASE TG_OP
    WHEN 'INSERT' THEN format('select *, 1 as d from new_rows where %s', live)
    WHEN 'DELETE' THEN format('select *, -1 as d from old_rows where %s', live)
    ELSE format('select *, 1 as d from new_rows where %s union all select *, -1 as d from old_rows where %s', live, live)
  END;
  EXECUTE format(
    'with r as (%s)
     insert into list_counts (tenant_id, table_name, facet, value, n)
     select c.tenant_id, %L, c.facet, c.value, sum(c.d) from (%s) c
      where exists (select 1 from tenants t where t.id = c.tenant_id)
      group by c.tenant_id, c.facet, c.value having sum(c.d) <> 0',
    changed, TG_TABLE_NAME, facets);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The arguments a counted table's triggers were made with: the soft-delete column, then the facet columns.
CREATE OR REPLACE FUNCTION gh_list_count_args(tbl regclass) RETURNS text[]
  LANGUAGE sql STABLE
  AS $$
    SELECT (string_to_array(encode(t.tgargs, 'escape'), '\000'))[1:t.tgnargs]
      FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'list_count_insert'
  $$;
--> statement-breakpoint
-- Counts one association's rows of a counted table again from the rows themselves (after a bulk load, whose
-- replica mode skips triggers), replacing what list_counts held for it.
CREATE OR REPLACE FUNCTION gh_list_recount(tbl regclass, tenant uuid) RETURNS void
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  args text[] := gh_list_count_args(tbl);
  live text;
  facets text;
  name text := (SELECT c.relname FROM pg_class c WHERE c.oid = tbl);
BEGIN
  IF args IS NULL THEN RAISE EXCEPTION '% is not a counted table', tbl; END IF;
  live := CASE WHEN args[1] = '' THEN 'true' ELSE format('not %I', args[1]) END;
  facets := format('select %L as facet, %L as value from r', '', '');
  FOR i IN 2 .. coalesce(array_length(args, 1), 1) LOOP
    facets := facets || format(' union all select %L, coalesce(%I::text, %L) from r', args[i], args[i], '');
  END LOOP;
  DELETE FROM list_counts WHERE tenant_id = tenant AND table_name = name;
  EXECUTE format(
    'with r as (select * from %s where tenant_id = $1 and %s)
     insert into list_counts (tenant_id, table_name, facet, value, n)
     select $1, %L, c.facet, c.value, count(*) from (%s) c group by c.facet, c.value',
    tbl, live, name, facets) USING tenant;
END
$$;
--> statement-breakpoint
-- Makes a table counted: its three statement triggers, and its counts from the rows it holds.
CREATE OR REPLACE FUNCTION gh_count_list(tbl regclass, deleted text, facets text[]) RETURNS void
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  args text := array_to_string(array(SELECT quote_literal(a) FROM unnest(deleted || facets) a), ', ');
  t uuid;
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS list_count_insert ON %s', tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS list_count_update ON %s', tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS list_count_delete ON %s', tbl);
  EXECUTE format('CREATE TRIGGER list_count_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gh_list_count_rows(%s)', tbl, args);
  EXECUTE format('CREATE TRIGGER list_count_update AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gh_list_count_rows(%s)', tbl, args);
  EXECUTE format('CREATE TRIGGER list_count_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION gh_list_count_rows(%s)', tbl, args);
  FOR t IN EXECUTE format('SELECT DISTINCT tenant_id FROM %s', tbl) LOOP
    PERFORM gh_list_recount(tbl, t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- Folds an association's rows of changes into one row per table, facet and value (the daily job): the rows it
-- deletes are summed into their replacement in one statement, so a concurrent write's row is kept whole.
CREATE OR REPLACE FUNCTION gh_list_counts_fold(tenant uuid) RETURNS integer
  LANGUAGE sql
  SET search_path = public, pg_temp
  AS $$
    WITH gone AS (DELETE FROM list_counts WHERE tenant_id = tenant RETURNING tenant_id, table_name, facet, value, n),
         kept AS (
           INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
           SELECT tenant_id, table_name, facet, value, sum(n) FROM gone
            GROUP BY tenant_id, table_name, facet, value HAVING sum(n) <> 0
           RETURNING 1)
    SELECT (SELECT count(*)::integer FROM gone) - (SELECT count(*)::integer FROM kept)
  $$;
--> statement-breakpoint
SELECT gh_count_list('memberships', 'is_deleted', ARRAY['status']);
--> statement-breakpoint
SELECT gh_count_list('invoices', '', ARRAY['status']);
--> statement-breakpoint
SELECT gh_count_list('payments', 'is_deleted', ARRAY['method', 'status']);
--> statement-breakpoint
SELECT gh_count_list('credits', '', ARRAY[]::text[]);
--> statement-breakpoint
SELECT gh_count_list('events', 'is_deleted', ARRAY['repeats', 'status', 'visibility']);
--> statement-breakpoint
SELECT gh_count_list('event_attendees', 'is_deleted', ARRAY['event_attendee_status_id']);
--> statement-breakpoint
SELECT gh_count_list('projects', 'is_deleted', ARRAY['status']);
--> statement-breakpoint
SELECT gh_count_list('tasks', 'is_deleted', ARRAY['status']);
