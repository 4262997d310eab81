-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- Finds an API key by its public prefix before the organisation is known. SECURITY DEFINER so it can
-- look across organisations; it returns only what authentication needs and never the other rows.
-- credential_keys names the organisation, and the key is then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_api_key(p_prefix text)
RETURNS TABLE (key_id uuid, organisation_id uuid, user_id uuid, secret_hash text, user_status text,
               user_groups text[], auth_version integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.user_id, k.secret_hash, u.status, u.groups, u.auth_version
  FROM credential_keys l
  JOIN api_keys k ON k.organisation_id = l.organisation_id AND k.prefix = l.value
  JOIN users u ON u.organisation_id = k.organisation_id AND u.id = k.user_id
  WHERE l.kind = 'api_keys.prefix' AND l.value = p_prefix AND k.revoked_at IS NULL
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_api_key(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_api_key(text) TO actiondesk_app;
