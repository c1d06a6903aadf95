-- Events: row-level security forced, ids numbered per association, record versions on what staff edit.
SELECT gh_enable_tenant_rls('event_categories');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('event_categories', 'category_id');
--> statement-breakpoint
SELECT gh_enable_record_version('event_categories');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('events');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('events', 'event_id');
--> statement-breakpoint
SELECT gh_enable_record_version('events');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('event_details');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('event_details', 'event_detail_id');
--> statement-breakpoint
SELECT gh_enable_record_version('event_details');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('event_registration_types');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('event_registration_types', 'registration_type_id');
--> statement-breakpoint
SELECT gh_enable_record_version('event_registration_types');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('event_registrations');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('event_registrations', 'registration_id');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('event_attendees');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('event_attendees', 'attendee_id');
--> statement-breakpoint
SELECT gh_enable_record_version('event_attendees');
