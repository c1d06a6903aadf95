-- The session lookup also answers the tenant's settings, so a request needs no second round trip to read them
-- (list page size, draft duration, timezone…). Same checks as before; the return type changes, hence drop + create.
DROP FUNCTION IF EXISTS gh_session_lookup(text);
--> statement-breakpoint
CREATE FUNCTION gh_session_lookup(p_session_id text)
  RETURNS TABLE (
    session_id text, user_id bigint, tenant_id uuid, impersonator_user_id bigint, role text, login_type text,
    ui_version integer, expires_at timestamptz, terms_pending boolean, prompts_pending boolean,
    tenant_settings jsonb
  )
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  s record;
BEGIN
  SELECT se.id, se.user_id, se.tenant_id, se.impersonator_user_id, se.expires_at, u.login_type, u.ui_version,
         (u.security_question_id IS NULL OR u.is_require_password_reset OR u.must_change_username) AS prompts
    INTO s
    FROM sessions se JOIN users u ON u.id = se.user_id
   WHERE se.id = p_session_id AND se.revoked_at IS NULL AND se.expires_at > now() AND u.is_active;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM set_config('app.tenant_id', s.tenant_id::text, true);
  PERFORM set_config('app.user_id', s.user_id::text, true);
  RETURN QUERY
    SELECT s.id, s.user_id, s.tenant_id, s.impersonator_user_id, tu.role, s.login_type, s.ui_version, s.expires_at,
           EXISTS (
             SELECT 1 FROM terms_of_use t
              WHERE t.tenant_id = s.tenant_id AND t.login_type = s.login_type
                AND t.id = (SELECT max(t2.id) FROM terms_of_use t2
                             WHERE t2.tenant_id = s.tenant_id AND t2.login_type = s.login_type)
                AND NOT EXISTS (SELECT 1 FROM terms_acceptances a
                                 WHERE a.tenant_id = s.tenant_id AND a.terms_id = t.id
                                   AND a.user_id = s.user_id AND a.accepted)
           ),
           s.prompts,
           tn.settings::jsonb
      FROM tenant_users tu JOIN tenants tn ON tn.id = tu.tenant_id
     WHERE tu.tenant_id = s.tenant_id AND tu.user_id = s.user_id;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_session_lookup(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_session_lookup(text) TO guildhall_app;
