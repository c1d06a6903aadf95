-- Custom fields in the query tool's views (decisions 0111, 0170): security_invoker, live fields only, without
-- tenant_id. A value names its entity, field and record; a choice is also given by its name.
CREATE VIEW gh_query.custom_fields WITH (security_invoker = true) AS
  SELECT custom_field_id, entity, name, help_text, data_type_id, required, page_number, sort_order, visibility,
         in_directory, searchable, choices, created_at, updated_at
    FROM public.custom_fields
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.custom_field_values WITH (security_invoker = true) AS
  SELECT f.entity, v.record_id, v.field_id, f.name AS field_name, f.data_type_id, v.text_value, v.number_value,
         v.date_value, v.datetime_value, v.bool_value, v.choice_id,
         (SELECT c ->> 'Name' FROM jsonb_array_elements(f.choices) c WHERE (c ->> 'Id')::bigint = v.choice_id)
           AS choice_name,
         v.choice_ids,
         (SELECT array_agg(c ->> 'Name' ORDER BY x.o) FROM unnest(v.choice_ids) WITH ORDINALITY x(id, o)
            JOIN jsonb_array_elements(f.choices) c ON (c ->> 'Id')::bigint = x.id) AS choice_names,
         v.updated_at
    FROM public.custom_field_values v
    JOIN public.custom_fields f ON f.tenant_id = v.tenant_id AND f.custom_field_id = v.field_id
   WHERE NOT f.is_deleted;
--> statement-breakpoint
GRANT SELECT ON gh_query.custom_fields, gh_query.custom_field_values TO guildhall_app;
