-- One CSV field from a value's text: empty for null, quoted (quotes doubled) when it holds a comma, a quote or a
-- line break, as is otherwise. Exports build each CSV line in the database with it (one text value per row
-- instead of one per column to decode and quote in JavaScript). Immutable SQL, so the planner inlines it.
CREATE FUNCTION gh_csv_field(v text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN v IS NULL THEN ''
      WHEN v ~ '[",\r\n]' THEN '"' || replace(v, '"', '""') || '"'
      ELSE v
    END
  $$;
