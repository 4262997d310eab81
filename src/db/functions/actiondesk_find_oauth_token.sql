-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- A token by the hash of its value, before the organisation is known (bearer authentication), with
-- what authentication needs of its client and user, its refresh family, its client's public id and
-- when it was last used. SECURITY DEFINER. credential_keys names the organisation, and the token is
-- then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, client_id uuid, user_id uuid, kind text, scopes text[],
               expires_at timestamptz, revoked_at timestamptz, client_disabled_at timestamptz,
               user_status text, user_groups text[], auth_version integer, family_id uuid,
               created_at timestamptz, last_used_at timestamptz, public_client_id text, user_kind text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.client_id, t.user_id, t.kind, t.scopes, t.expires_at, t.revoked_at,
         c.disabled_at, u.status, u.groups, u.auth_version, t.family_id, t.created_at, t.last_used_at,
         c.client_id, u.kind
  FROM credential_keys l
  JOIN oauth_tokens t ON t.organisation_id = l.organisation_id AND t.token_hash = l.value
  JOIN oauth_clients c ON c.organisation_id = t.organisation_id AND c.id = t.client_id
  JOIN users u ON u.organisation_id = t.organisation_id AND u.id = t.user_id
  WHERE l.kind = 'oauth_tokens.token_hash' AND l.value = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_token(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_token(text) TO actiondesk_app;
