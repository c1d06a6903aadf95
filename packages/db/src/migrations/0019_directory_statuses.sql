-- The member directory lists active members unless the association chooses other statuses (tenant setting).
-- Row-level security is forced on tenants, even for its owner: lifted for this one update of every row.
ALTER TABLE tenants NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE tenants SET settings = settings || '{"directoryStatuses":["active"]}'::jsonb
 WHERE NOT settings ? 'directoryStatuses';
--> statement-breakpoint
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
