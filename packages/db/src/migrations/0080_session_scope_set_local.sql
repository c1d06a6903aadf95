-- The request's scope is set with SET LOCAL, not set_config(): on Citus (citus.propagate_set_commands = 'local', see
-- decision 0071 and migration tenant_ids_citus) a SET LOCAL travels with the transaction to the workers, where
-- row-level security reads app.tenant_id; a value set by set_config() stays on the coordinator. Same lookups as
-- before (the membership's active flag included), only the way the scope is set changes.
CREATE OR REPLACE FUNCTION gh_session_lookup(p_session_id text)
  RETURNS TABLE (
    session_id text, user_id bigint, tenant_id uuid, impersonator_user_id bigint, role text, login_type text,
    ui_version integer, expires_at timestamptz, terms_pending boolean, prompts_pending boolean,
    tenant_settings jsonb
  )
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
BEGIN
  SELECT se.id, se.user_id, se.tenant_id, se.impersonator_user_id, tu.role, u.login_type, u.ui_version, se.expires_at,
         EXISTS (
           SELECT 1 FROM terms_of_use t
            WHERE t.tenant_id = se.tenant_id AND t.login_type = u.login_type
              AND t.id = (SELECT max(t2.id) FROM terms_of_use t2
                           WHERE t2.tenant_id = se.tenant_id AND t2.login_type = u.login_type)
              AND NOT EXISTS (SELECT 1 FROM terms_acceptances a
                               WHERE a.tenant_id = se.tenant_id AND a.terms_id = t.id
                                 AND a.user_id = se.user_id AND a.accepted)
         ),
         (u.security_question_id IS NULL OR u.is_require_password_reset OR u.must_change_username),
         tn.settings::jsonb
    INTO session_id, user_id, tenant_id, impersonator_user_id, role, login_type, ui_version, expires_at,
         terms_pending, prompts_pending, tenant_settings
    FROM sessions se
    JOIN users u ON u.id = se.user_id
    JOIN tenant_users tu ON tu.tenant_id = se.tenant_id AND tu.user_id = se.user_id
    JOIN tenants tn ON tn.id = se.tenant_id
   WHERE se.id = p_session_id AND se.revoked_at IS NULL AND se.expires_at > now() AND u.is_active AND tu.is_active;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  EXECUTE format('SET LOCAL app.tenant_id = %L', tenant_id::text);
  EXECUTE format('SET LOCAL app.user_id = %L', user_id::text);
  RETURN NEXT;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_my_associations()
  RETURNS TABLE (tenant_id uuid, name text, role text)
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  AS $$
DECLARE
  caller text := current_setting('app.tenant_id', true);
  m record;
BEGIN
  FOR m IN SELECT tu.tenant_id, tu.role FROM tenant_users tu WHERE tu.user_id = gh_current_user() AND tu.is_active LOOP
    EXECUTE format('SET LOCAL app.tenant_id = %L', m.tenant_id::text);
    RETURN QUERY SELECT t.id, t.name, m.role FROM tenants t WHERE t.id = m.tenant_id;
  END LOOP;
  EXECUTE format('SET LOCAL app.tenant_id = %L', coalesce(caller, ''));
END
$$;
