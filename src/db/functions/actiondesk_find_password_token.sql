-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- A password link by the hash of its token, before the organisation is known. SECURITY DEFINER.
-- credential_keys names the organisation, and the link is then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_password_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, user_id uuid, expires_at timestamptz,
               used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.user_id, t.expires_at, t.used_at
  FROM credential_keys l
  JOIN password_tokens t ON t.organisation_id = l.organisation_id AND t.token_hash = l.value
  WHERE l.kind = 'password_tokens.token_hash' AND l.value = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_password_token(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_password_token(text) TO actiondesk_app;
