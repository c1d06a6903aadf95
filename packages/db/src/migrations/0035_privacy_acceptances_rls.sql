-- Row-level security on the privacy-policy acceptances.
SELECT gh_enable_tenant_rls('privacy_acceptances');
