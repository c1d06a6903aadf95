-- Billing and events in the query tool's views (decision 0170): security_invoker (the caller's row-level security
-- applies), live records only, without tenant_id. Amounts stay integer cents, as the tables keep them.
CREATE VIEW gh_query.invoices WITH (security_invoker = true) AS
  SELECT invoice_id, number, contact_id, contact_name, status, currency, issue_date, due_date, subtotal_cents,
         discount_cents, tax_cents, total_cents, applied_cents, written_off_cents, balance_cents, memo, paid_at,
         voided_at, created_at, updated_at
    FROM public.invoices;
--> statement-breakpoint
CREATE VIEW gh_query.events WITH (security_invoker = true) AS
  SELECT event_id, name, category_id, status, visibility, starts_at, ends_at, location, online_url, capacity,
         credit_hours, created_at, updated_at
    FROM public.events
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.event_details WITH (security_invoker = true) AS
  SELECT event_detail_id, event_id, starts_at, ends_at, location, online_url, capacity, status, seats_taken,
         created_at, updated_at
    FROM public.event_details
   WHERE NOT is_deleted;
--> statement-breakpoint
CREATE VIEW gh_query.event_attendees WITH (security_invoker = true) AS
  SELECT attendee_id, event_id, event_detail_id, registration_id, contact_id, attendee_name, attendee_email,
         registration_type_id, event_attendee_status_id, registered_attendees_count, checked_in_at, paid_cents,
         credits_earned, created_at, updated_at
    FROM public.event_attendees
   WHERE NOT is_deleted;
--> statement-breakpoint
GRANT SELECT ON gh_query.invoices, gh_query.events, gh_query.event_details, gh_query.event_attendees TO guildhall_app;
