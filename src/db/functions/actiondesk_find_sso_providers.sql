-- Live since migration 0043_sign_in_devices (to change it: src/db/functions/README.md).
--
-- The single sign-on buttons for an e-mail address, before the organisation is known (the e-mail-first
-- step): the enabled providers of each organisation where the address has an active staff account, and
-- of each organisation with an enabled provider that creates users of the address's domain just in time
-- — there whether or not the address has an account here or anywhere else, so the answer lists no
-- accounts of that domain.
-- SECURITY DEFINER; at most 20.
CREATE OR REPLACE FUNCTION actiondesk_find_sso_providers(p_email text)
RETURNS TABLE (organisation_id uuid, organisation_name text, provider_id uuid, provider_name text,
               provider_type text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH accounts AS (
    SELECT DISTINCT u.organisation_id FROM users u
     WHERE lower(u.email) = lower(p_email) AND u.kind = 'staff' AND u.status = 'active'
  ), jit AS (
    SELECT DISTINCT j.organisation_id FROM sso_providers j
     WHERE j.enabled AND j.jit_group IS NOT NULL
       AND substring(lower(p_email) FROM '@([^@]+)$') = ANY (j.allowed_domains)
  )
  SELECT p.organisation_id, o.name, p.id, p.name, p.type
  FROM sso_providers p JOIN organisations o ON o.id = p.organisation_id
  WHERE p.enabled AND (p.organisation_id IN (SELECT organisation_id FROM accounts)
                       OR p.organisation_id IN (SELECT organisation_id FROM jit))
  ORDER BY o.created_at, p.organisation_id, p.created_at, p.id
  LIMIT 20
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_sso_providers(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_sso_providers(text) TO actiondesk_app;
