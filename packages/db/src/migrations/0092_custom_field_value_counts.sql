-- Custom field values counted (decisions 0103 and 0112): a statement trigger adds to list_counts, per association,
-- field and value, the value rows a statement added (+n) and removed (-n): table_name 'custom_field_values', facet
-- the field id, value the choice id (a dropdown, yes/no or fill-in), 'true' or 'false' (a checkbox), else ''. A
-- list filtered by a choice reads its total from these rows, and the sum over a field's values is the number of
-- records with a value of it (a record has one value row per field; a deleted record has none).
CREATE OR REPLACE FUNCTION gh_custom_value_counts() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
    SELECT r.tenant_id, 'custom_field_values', r.field_id::text,
           coalesce(r.choice_id::text, r.bool_value::text, ''), count(*)
      FROM new_rows r WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = r.tenant_id)
     GROUP BY 1, 3, 4;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
    SELECT r.tenant_id, 'custom_field_values', r.field_id::text,
           coalesce(r.choice_id::text, r.bool_value::text, ''), -count(*)
      FROM old_rows r WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = r.tenant_id)
     GROUP BY 1, 3, 4;
  ELSE
    INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
    SELECT c.tenant_id, 'custom_field_values', c.facet, c.value, sum(c.d)
      FROM (SELECT r.tenant_id, r.field_id::text AS facet, coalesce(r.choice_id::text, r.bool_value::text, '') AS value, 1 AS d
              FROM new_rows r
            UNION ALL
            SELECT r.tenant_id, r.field_id::text, coalesce(r.choice_id::text, r.bool_value::text, ''), -1
              FROM old_rows r) c
     WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = c.tenant_id)
     GROUP BY 1, 3, 4 HAVING sum(c.d) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER custom_value_count_insert AFTER INSERT ON custom_field_values REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_value_counts();
--> statement-breakpoint
CREATE TRIGGER custom_value_count_update AFTER UPDATE ON custom_field_values
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_value_counts();
--> statement-breakpoint
CREATE TRIGGER custom_value_count_delete AFTER DELETE ON custom_field_values REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_value_counts();
--> statement-breakpoint
-- The values already stored, counted once.
INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
SELECT tenant_id, 'custom_field_values', field_id::text, coalesce(choice_id::text, bool_value::text, ''), count(*)
  FROM custom_field_values GROUP BY 1, 3, 4;
