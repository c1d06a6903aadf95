-- The associations the current user (app.user_id) belongs to, with their names: what the association chooser and
-- the header's switcher list. The user's memberships are read through the own-memberships policy; each tenant's
-- name through the tenants policy, by scoping to that tenant for the read, then the caller's scope is put back.
-- Whoever owns the function, nothing but the current user's own memberships is answered.
CREATE OR REPLACE FUNCTION gh_my_associations()
  RETURNS TABLE (tenant_id uuid, name text, role text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text := current_setting('app.tenant_id', true);
  m record;
BEGIN
  FOR m IN SELECT tu.tenant_id, tu.role FROM tenant_users tu WHERE tu.user_id = gh_current_user() LOOP
    PERFORM set_config('app.tenant_id', m.tenant_id::text, true);
    RETURN QUERY SELECT t.id, t.name, m.role FROM tenants t WHERE t.id = m.tenant_id;
  END LOOP;
  PERFORM set_config('app.tenant_id', coalesce(caller, ''), true);
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_my_associations() FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_my_associations() TO guildhall_app;
