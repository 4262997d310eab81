-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- An authorization code by the hash of its value, before the organisation is known (token endpoint),
-- with its refresh family. SECURITY DEFINER. credential_keys names the organisation, and the code is
-- then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_code(p_hash text)
RETURNS TABLE (id uuid, organisation_id uuid, client_id uuid, user_id uuid, redirect_uri text,
               redirect_uri_given boolean, scopes text[], code_challenge text, code_challenge_method text,
               expires_at timestamptz, used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.client_id, k.user_id, k.redirect_uri, k.redirect_uri_given, k.scopes,
         k.code_challenge, k.code_challenge_method, k.expires_at, k.used_at
  FROM credential_keys l
  JOIN oauth_codes k ON k.organisation_id = l.organisation_id AND k.code_hash = l.value
  WHERE l.kind = 'oauth_codes.code_hash' AND l.value = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_code(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_code(text) TO actiondesk_app;
