-- A member's calendar feed: row-level security forced like every association's table.
SELECT gh_enable_tenant_rls('event_member_feeds');
