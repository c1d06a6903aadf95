-- The query tool (decision 0170): row-level security and per-tenant ids on the saved queries, and the views made
-- for querying. The views are security_invoker, so the caller's row-level security applies to the tables they
-- read: a query sees only its association's rows. They show live records only, without tenant_id.
SELECT gh_enable_tenant_rls('saved_queries');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('saved_queries', 'query_id');
--> statement-breakpoint
SELECT gh_enable_record_version('saved_queries');
--> statement-breakpoint
CREATE SCHEMA IF NOT EXISTS gh_query;
--> statement-breakpoint
GRANT USAGE ON SCHEMA gh_query TO guildhall_app;
--> statement-breakpoint
CREATE VIEW gh_query.contacts WITH (security_invoker = true) AS
  SELECT contact_id, account_number, contact_type, display_name, first_name, last_name, organization_name, status,
         email, phone, website, address1, address2, city, state_province, postal_code, country_code, is_listed,
         notes, created_at, updated_at
    FROM public.contacts
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.contact_entries WITH (security_invoker = true) AS
  SELECT contact_id, comm_type, value, created_at, updated_at
    FROM public.contact_entries
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.contact_links WITH (security_invoker = true) AS
  SELECT contact_id, related_contact_id, link_type, created_at, updated_at
    FROM public.contact_links
   WHERE NOT is_deleted;
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA gh_query TO guildhall_app;
--> statement-breakpoint
-- Memberships in the query tool's views (decision 0170): security_invoker, live rows only, without tenant_id.
CREATE VIEW gh_query.memberships WITH (security_invoker = true) AS
  SELECT membership_id, contact_id, contact_name, name, membership_type_id, membership_level_id, chapter_id, status,
         status_date, join_date, term_start, term_end, bill_frequency_type_id, term_total, auto_pay, created_at,
         updated_at
    FROM public.memberships
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.membership_types WITH (security_invoker = true) AS
  SELECT membership_type_id, name, description, is_organization, term_kind, duration_months, grace_days, is_active
    FROM public.membership_types
   WHERE NOT is_deleted;
--> statement-breakpoint
GRANT SELECT ON gh_query.memberships, gh_query.membership_types TO guildhall_app;
