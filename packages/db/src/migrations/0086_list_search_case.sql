DROP INDEX "credits_search_trgm";--> statement-breakpoint
DROP INDEX "invoices_search_trgm";--> statement-breakpoint
DROP INDEX "payments_search_trgm";--> statement-breakpoint
DROP INDEX "contact_entries_search_trgm";--> statement-breakpoint
DROP INDEX "event_attendees_search_trgm";--> statement-breakpoint
DROP INDEX "event_details_search_trgm";--> statement-breakpoint
DROP INDEX "events_search_trgm";--> statement-breakpoint
DROP INDEX "memberships_search_trgm";--> statement-breakpoint
DROP INDEX "projects_search_trgm";--> statement-breakpoint
DROP INDEX "tasks_search_trgm";--> statement-breakpoint
CREATE INDEX "credits_search_trgm" ON "credits" USING gin (lower((case when "contact_name" is null then '' else "contact_name"::text end) || ' ' || (case when "reason" is null then '' else "reason"::text end)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "invoices_search_trgm" ON "invoices" USING gin (lower((case when "number" is null then '' else "number"::text end) || ' ' || (case when "contact_name" is null then '' else "contact_name"::text end)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_search_trgm" ON "payments" USING gin (lower((case when "contact_name" is null then '' else "contact_name"::text end) || ' ' || (case when "check_number" is null then '' else "check_number"::text end) || ' ' || (case when "reference" is null then '' else "reference"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_search_trgm" ON "contact_entries" USING gin (lower((case when "value" is null then '' else "value"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_attendees_search_trgm" ON "event_attendees" USING gin (lower((case when "attendee_name" is null then '' else "attendee_name"::text end) || ' ' || (case when "attendee_email" is null then '' else "attendee_email"::text end) || ' ' || (case when "check_in_code" is null then '' else "check_in_code"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "event_details_search_trgm" ON "event_details" USING gin (lower((case when "location" is null then '' else "location"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "events_search_trgm" ON "events" USING gin (lower((case when "name" is null then '' else "name"::text end) || ' ' || (case when "location" is null then '' else "location"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "memberships_search_trgm" ON "memberships" USING gin (lower((case when "contact_name" is null then '' else "contact_name"::text end) || ' ' || (case when "name" is null then '' else "name"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "projects_search_trgm" ON "projects" USING gin (lower((case when "name" is null then '' else "name"::text end) || ' ' || (case when "related_name" is null then '' else "related_name"::text end)) gin_trgm_ops) WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "tasks_search_trgm" ON "tasks" USING gin (lower((case when "title" is null then '' else "title"::text end) || ' ' || (case when "assignee_names" is null then '' else "assignee_names"::text end)) gin_trgm_ops) WHERE not is_deleted;