-- A custom choice's records kept in the order of another custom field, per pair a list asks for (decision 0196,
-- designed by 0192): a page filtered by one choice and sorted by a number, date or date-time reads a range of
-- custom_field_pair_keys_order_idx instead of hashing every match and walking the sort's index.
CREATE TABLE "custom_field_pair_keys" (
	"tenant_id" uuid NOT NULL,
	"filter_field_id" bigint NOT NULL,
	"sort_field_id" bigint NOT NULL,
	"choice_id" bigint NOT NULL,
	"sort_value" numeric,
	"record_id" bigint NOT NULL,
	CONSTRAINT "custom_field_pair_keys_tenant_id_filter_field_id_sort_field_id_record_id_pk" PRIMARY KEY("tenant_id","filter_field_id","sort_field_id","record_id")
);
--> statement-breakpoint
CREATE TABLE "custom_field_sort_pairs" (
	"tenant_id" uuid NOT NULL,
	"filter_field_id" bigint NOT NULL,
	"sort_field_id" bigint NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	CONSTRAINT "custom_field_sort_pairs_tenant_id_filter_field_id_sort_field_id_pk" PRIMARY KEY("tenant_id","filter_field_id","sort_field_id")
);
--> statement-breakpoint
ALTER TABLE "custom_field_pair_keys" ADD CONSTRAINT "custom_field_pair_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_field_sort_pairs" ADD CONSTRAINT "custom_field_sort_pairs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_field_pair_keys_order_idx" ON "custom_field_pair_keys" USING btree ("tenant_id","filter_field_id","sort_field_id","choice_id","sort_value","record_id");--> statement-breakpoint
SELECT gh_enable_tenant_rls('custom_field_sort_pairs');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('custom_field_pair_keys');
--> statement-breakpoint
-- A sort value as one number: the number, the date as days since 1970-01-01, the date-time as epoch seconds (with
-- its microseconds: the order of the values). A value row holds one of them; null for none.
CREATE OR REPLACE FUNCTION gh_custom_sort_value(number_value numeric, date_value date, datetime_value timestamptz)
  RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  SET search_path = public, pg_temp
  AS $$
    SELECT coalesce(number_value, (date_value - date '1970-01-01')::numeric, extract(epoch from datetime_value))
  $$;
--> statement-breakpoint
-- The keys of the pairs (tenant, filter, sort) of the records (ids) written, rewritten from the values: deleted, then
-- one row per record that has a choice of the filter field, with its sort value. A row a fill wrote meanwhile is
-- replaced (the write is the newer).
CREATE OR REPLACE FUNCTION gh_custom_pair_rewrite(t uuid[], f bigint[], s bigint[], r bigint[]) RETURNS void
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
BEGIN
  DELETE FROM custom_field_pair_keys k
   USING unnest(t, f, s, r) w(tenant_id, filter_field_id, sort_field_id, record_id)
   WHERE k.tenant_id = w.tenant_id AND k.filter_field_id = w.filter_field_id
     AND k.sort_field_id = w.sort_field_id AND k.record_id = w.record_id;
  INSERT INTO custom_field_pair_keys (tenant_id, filter_field_id, sort_field_id, choice_id, sort_value, record_id)
  SELECT w.tenant_id, w.filter_field_id, w.sort_field_id, fv.choice_id,
         gh_custom_sort_value(sv.number_value, sv.date_value, sv.datetime_value), w.record_id
    FROM unnest(t, f, s, r) w(tenant_id, filter_field_id, sort_field_id, record_id)
    JOIN custom_field_values fv ON fv.tenant_id = w.tenant_id AND fv.field_id = w.filter_field_id
     AND fv.record_id = w.record_id AND fv.choice_id IS NOT NULL
    LEFT JOIN custom_field_values sv ON sv.tenant_id = w.tenant_id AND sv.field_id = w.sort_field_id
     AND sv.record_id = w.record_id
   WHERE EXISTS (SELECT 1 FROM tenants x WHERE x.id = w.tenant_id)
  ON CONFLICT (tenant_id, filter_field_id, sort_field_id, record_id)
    DO UPDATE SET choice_id = excluded.choice_id, sort_value = excluded.sort_value;
END
$$;
--> statement-breakpoint
-- Beside the kept counts (migration 0092): a statement that writes values rewrites, for each pair naming a field it
-- wrote (as filter or as sort), the keys of the records it wrote. A statement of an association without pairs reads
-- one empty index and stops.
CREATE OR REPLACE FUNCTION gh_custom_pair_keys() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  t uuid[]; f bigint[]; s bigint[]; r bigint[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM custom_field_sort_pairs) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(x.tenant_id), array_agg(x.filter_field_id), array_agg(x.sort_field_id), array_agg(x.record_id)
      INTO t, f, s, r
      FROM (SELECT DISTINCT p.tenant_id, p.filter_field_id, p.sort_field_id, w.record_id
              FROM new_rows w JOIN custom_field_sort_pairs p ON p.tenant_id = w.tenant_id
               AND w.field_id IN (p.filter_field_id, p.sort_field_id)) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(x.tenant_id), array_agg(x.filter_field_id), array_agg(x.sort_field_id), array_agg(x.record_id)
      INTO t, f, s, r
      FROM (SELECT DISTINCT p.tenant_id, p.filter_field_id, p.sort_field_id, w.record_id
              FROM old_rows w JOIN custom_field_sort_pairs p ON p.tenant_id = w.tenant_id
               AND w.field_id IN (p.filter_field_id, p.sort_field_id)) x;
  ELSE
    SELECT array_agg(x.tenant_id), array_agg(x.filter_field_id), array_agg(x.sort_field_id), array_agg(x.record_id)
      INTO t, f, s, r
      FROM (SELECT DISTINCT p.tenant_id, p.filter_field_id, p.sort_field_id, w.record_id
              FROM (SELECT tenant_id, field_id, record_id FROM new_rows
                    UNION SELECT tenant_id, field_id, record_id FROM old_rows) w
              JOIN custom_field_sort_pairs p ON p.tenant_id = w.tenant_id
               AND w.field_id IN (p.filter_field_id, p.sort_field_id)) x;
  END IF;
  IF t IS NOT NULL THEN PERFORM gh_custom_pair_rewrite(t, f, s, r); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER custom_value_pair_insert AFTER INSERT ON custom_field_values REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_pair_keys();
--> statement-breakpoint
CREATE TRIGGER custom_value_pair_update AFTER UPDATE ON custom_field_values
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_pair_keys();
--> statement-breakpoint
CREATE TRIGGER custom_value_pair_delete AFTER DELETE ON custom_field_values REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gh_custom_pair_keys();
--> statement-breakpoint
-- The job's fill of one pair (after a list asked for it): its keys from the two fields' values in one statement, then
-- the pair is ready. A row a write kept meanwhile stays (the write is the newer).
CREATE OR REPLACE FUNCTION gh_custom_pair_fill(tenant uuid, filter_field bigint, sort_field bigint) RETURNS bigint
  LANGUAGE plpgsql
  SET search_path = public, pg_temp
  AS $$
DECLARE
  n bigint;
BEGIN
  DELETE FROM custom_field_pair_keys
   WHERE tenant_id = tenant AND filter_field_id = filter_field AND sort_field_id = sort_field;
  INSERT INTO custom_field_pair_keys (tenant_id, filter_field_id, sort_field_id, choice_id, sort_value, record_id)
  SELECT fv.tenant_id, filter_field, sort_field, fv.choice_id,
         gh_custom_sort_value(sv.number_value, sv.date_value, sv.datetime_value), fv.record_id
    FROM custom_field_values fv
    LEFT JOIN custom_field_values sv ON sv.tenant_id = fv.tenant_id AND sv.field_id = sort_field
     AND sv.record_id = fv.record_id
   WHERE fv.tenant_id = tenant AND fv.field_id = filter_field AND fv.choice_id IS NOT NULL
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  UPDATE custom_field_sort_pairs SET ready_at = now()
   WHERE tenant_id = tenant AND filter_field_id = filter_field AND sort_field_id = sort_field;
  RETURN n;
END
$$;
