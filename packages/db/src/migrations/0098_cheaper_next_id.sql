-- The column default of every numbered id (decision 0071), cheaper per row (decision 0182): the tenant's sequence is
-- looked up once by its name (one to_regclass) and drawn from, where the first version called the name's SQL
-- function, cast the tenant to uuid and looked the sequence up twice (to_regclass, then ::regclass) for every row.
-- A missing tenant still raises; a missing sequence (or a tenant that is not a uuid) takes the checked path.
CREATE OR REPLACE FUNCTION gh_next_id(p_table text) RETURNS bigint
  LANGUAGE plpgsql
  AS $$
DECLARE
  tenant text := current_setting('app.tenant_id', true);
  seq regclass;
BEGIN
  IF tenant IS NULL OR tenant = '' THEN
    RAISE EXCEPTION 'gh_next_id(%): no tenant is set for this transaction', p_table;
  END IF;
  seq := to_regclass('gh_ids_' || replace(tenant, '-', '') || '_' || p_table);
  IF seq IS NULL THEN
    seq := gh_create_id_sequence(tenant::uuid, p_table)::regclass;
  END IF;
  RETURN nextval(seq);
END
$$;
