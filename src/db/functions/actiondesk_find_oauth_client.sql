-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- A client by its public client_id, before the organisation is known (the token endpoint).
-- SECURITY DEFINER; returns only what client authentication needs. credential_keys names the
-- organisation, and the client is then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_client(p_client_id text)
RETURNS TABLE (id uuid, organisation_id uuid, type text, secret_hash text, grants text[], scopes text[],
               redirect_uris text[], service_user_id uuid, disabled_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.id, c.organisation_id, c.type, c.secret_hash, c.grants, c.scopes, c.redirect_uris,
         c.service_user_id, c.disabled_at
  FROM credential_keys l
  JOIN oauth_clients c ON c.organisation_id = l.organisation_id AND c.client_id = l.value
  WHERE l.kind = 'oauth_clients.client_id' AND l.value = p_client_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_client(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_client(text) TO actiondesk_app;
