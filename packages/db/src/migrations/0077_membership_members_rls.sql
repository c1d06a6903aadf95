-- Secondary members: row-level security forced like every association's table; reminders sent before notices
-- existed count as mailed.
SELECT gh_enable_tenant_rls('membership_members');
--> statement-breakpoint
UPDATE membership_reminders SET mailed_at = created_at WHERE mailed_at IS NULL;
