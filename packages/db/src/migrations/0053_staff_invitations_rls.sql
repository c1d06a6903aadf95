-- Staff invitations: row-level security and per-association ids. invitation_tokens is an identity table (its
-- token is looked up before an association is known, as password_reset_tokens is), read only by the users feature.
SELECT gh_enable_tenant_rls('staff_invitations');
--> statement-breakpoint
SELECT gh_enable_tenant_ids('staff_invitations', 'invitation_id');
