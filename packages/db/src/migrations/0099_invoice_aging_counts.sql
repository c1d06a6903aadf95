-- The receivables aging report's kept sums (issue 15, decision 0103's rows of changes): a statement trigger of
-- invoices adds to list_counts (table_name 'invoice_aging') the open balance and the number of open invoices a
-- statement added (+) and removed (-), by due date (facets 'due_cents', 'due_count') and by contact ('contact_cents',
-- 'contact_count'); an invoice is open while its status is open or partially paid with a balance. The report sums
-- these rows (a few per due date and contact) instead of reading every open invoice; the daily fold keeps them few.
CREATE OR REPLACE FUNCTION gh_invoice_aging_rows() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  open_rows text := 'status in (''open'', ''partially_paid'') and balance_cents > 0';
  changed text;
BEGIN
  changed := CASE TG_OP
    WHEN 'INSERT' THEN format('select tenant_id, contact_id, due_date, balance_cents, 1 as d from new_rows where %s', open_rows)
    WHEN 'DELETE' THEN format('select tenant_id, contact_id, due_date, balance_cents, -1 as d from old_rows where %s', open_rows)
    ELSE format('select tenant_id, contact_id, due_date, balance_cents, 1 as d from new_rows where %s
                 union all select tenant_id, contact_id, due_date, balance_cents, -1 as d from old_rows where %s',
                open_rows, open_rows)
  END;
  EXECUTE format(
    'with r as (%s), f as (
       select tenant_id, ''due_cents'' as facet, due_date::text as value, sum(d * balance_cents) as n from r group by 1, 3
       union all select tenant_id, ''due_count'', due_date::text, sum(d) from r group by 1, 3
       union all select tenant_id, ''contact_cents'', contact_id::text, sum(d * balance_cents) from r group by 1, 3
       union all select tenant_id, ''contact_count'', contact_id::text, sum(d) from r group by 1, 3)
     insert into list_counts (tenant_id, table_name, facet, value, n)
     select f.tenant_id, ''invoice_aging'', f.facet, f.value, f.n from f
      where f.n <> 0 and exists (select 1 from tenants t where t.id = f.tenant_id)',
    changed);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoice_aging_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_invoice_aging_rows();
--> statement-breakpoint
CREATE TRIGGER invoice_aging_update AFTER UPDATE ON invoices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_invoice_aging_rows();
--> statement-breakpoint
CREATE TRIGGER invoice_aging_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_invoice_aging_rows();
--> statement-breakpoint
INSERT INTO list_counts (tenant_id, table_name, facet, value, n)
SELECT tenant_id, 'invoice_aging', facet, value, n FROM (
  SELECT tenant_id, 'due_cents' AS facet, due_date::text AS value, sum(balance_cents) AS n FROM invoices
   WHERE status IN ('open', 'partially_paid') AND balance_cents > 0 GROUP BY 1, 3
  UNION ALL SELECT tenant_id, 'due_count', due_date::text, count(*) FROM invoices
   WHERE status IN ('open', 'partially_paid') AND balance_cents > 0 GROUP BY 1, 3
  UNION ALL SELECT tenant_id, 'contact_cents', contact_id::text, sum(balance_cents) FROM invoices
   WHERE status IN ('open', 'partially_paid') AND balance_cents > 0 GROUP BY 1, 3
  UNION ALL SELECT tenant_id, 'contact_count', contact_id::text, count(*) FROM invoices
   WHERE status IN ('open', 'partially_paid') AND balance_cents > 0 GROUP BY 1, 3
) s WHERE n <> 0;
