-- Exported cells are spreadsheet-safe (OWASP CSV injection): a value starting with =, +, -, @, a tab or a carriage
-- return is a formula to Excel and LibreOffice, so it is written with a leading apostrophe (and quoted), unless it
-- is a plain number such as -12.50. The same rule as csvField in packages/shared/src/platform/csv.rules.ts;
-- a server test compares the two on generated strings.
CREATE OR REPLACE FUNCTION gh_csv_field(v text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN v IS NULL THEN ''
      WHEN left(v, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) AND v !~ '^-?[0-9]+(\.[0-9]+)?$'
        THEN '"''' || replace(v, '"', '""') || '"'
      WHEN v ~ '[",\r\n]' THEN '"' || replace(v, '"', '""') || '"'
      ELSE v
    END
  $$;
