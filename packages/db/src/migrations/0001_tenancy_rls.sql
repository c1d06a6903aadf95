-- Tenancy: the application role, the tenant scope functions and row-level security on every tenant-owned table.
-- The app connects (or, on PGlite, switches) to guildhall_app, which owns no table and lacks BYPASSRLS.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'guildhall_app') THEN
    CREATE ROLE guildhall_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;
--> statement-breakpoint
GRANT guildhall_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO guildhall_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO guildhall_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO guildhall_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO guildhall_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO guildhall_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gh_current_user() RETURNS bigint
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.user_id', true), '')::bigint $$;
--> statement-breakpoint
-- Every tenant-owned table calls this once in the migration that creates it.
CREATE OR REPLACE FUNCTION gh_enable_tenant_rls(tbl regclass) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s USING (tenant_id = gh_current_tenant()) WITH CHECK (tenant_id = gh_current_tenant())',
    tbl);
END
$$;
--> statement-breakpoint
SELECT gh_enable_tenant_rls('tenant_users');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('terms_of_use');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('terms_acceptances');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('audit_log');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('help_texts');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('status_messages');
--> statement-breakpoint
SELECT gh_enable_tenant_rls('mail_outbox');
--> statement-breakpoint
-- A signed-in user may read their own memberships in every tenant (to choose one at sign-in).
CREATE POLICY own_memberships ON tenant_users FOR SELECT USING (user_id = gh_current_user());
--> statement-breakpoint
-- The tenants table is keyed by id: a scope sees its own tenant row only.
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON tenants USING (id = gh_current_tenant()) WITH CHECK (id = gh_current_tenant());
--> statement-breakpoint
-- Session lookup: one round trip per request. Reads the session and its user (identity tables), then sets the
-- tenant and user of the current transaction and reads the membership and pending gates under row-level security.
CREATE OR REPLACE FUNCTION gh_session_lookup(p_session_id text)
  RETURNS TABLE (
    session_id text, user_id bigint, tenant_id uuid, impersonator_user_id bigint, role text, login_type text,
    ui_version integer, expires_at timestamptz, terms_pending boolean, prompts_pending boolean
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
           s.prompts
      FROM tenant_users tu
     WHERE tu.tenant_id = s.tenant_id AND tu.user_id = s.user_id;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gh_session_lookup(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gh_session_lookup(text) TO guildhall_app;
