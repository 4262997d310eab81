-- Live since migration 0019_oauth_codes (to change it: src/db/functions/README.md).
--
-- Opens a tenant transaction: sets the organisation, confirms that the credentials the caller cached
-- are still current (user present with the same auth_version, key not revoked) and records key use at
-- most once a minute. Returns 'ok' or 'stale'; the caller re-authenticates on 'stale'. The common case
-- is one indexed lookup.
CREATE OR REPLACE FUNCTION actiondesk_enter(p_org uuid, p_user uuid, p_key uuid, p_version integer, p_now timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
BEGIN
  PERFORM set_config('app.organisation_id', p_org::text, true);
  IF p_user IS NULL THEN
    RETURN 'ok';
  END IF;
  IF p_key IS NULL THEN
    PERFORM 1 FROM users WHERE organisation_id = p_org AND id = p_user AND auth_version = p_version;
    RETURN CASE WHEN FOUND THEN 'ok' ELSE 'stale' END;
  END IF;
  SELECT k.last_used_at INTO v_last
    FROM api_keys k
    JOIN users u ON u.organisation_id = k.organisation_id AND u.id = k.user_id
   WHERE k.organisation_id = p_org AND k.id = p_key AND k.user_id = p_user AND k.revoked_at IS NULL
     AND u.auth_version = p_version;
  IF NOT FOUND THEN
    RETURN 'stale';
  END IF;
  IF v_last IS NULL OR v_last < p_now - interval '60 seconds' THEN
    UPDATE api_keys SET last_used_at = p_now
     WHERE organisation_id = p_org AND id = p_key
       AND (last_used_at IS NULL OR last_used_at < p_now - interval '60 seconds');
  END IF;
  RETURN 'ok';
END
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_enter(uuid, uuid, uuid, integer, timestamptz) TO actiondesk_app;
--> statement-breakpoint
-- Opens a tenant transaction for an OAuth bearer token (the platform caches tokens briefly, as it does
-- API keys): confirms the token is still live — not revoked, not expired, its client enabled, its user
-- unchanged — and records its use at most once a minute. Without a token: the five-argument entry.
CREATE OR REPLACE FUNCTION actiondesk_enter(p_org uuid, p_user uuid, p_key uuid, p_version integer, p_now timestamptz,
                                 p_token uuid)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
BEGIN
  IF p_token IS NULL OR p_user IS NULL THEN
    RETURN actiondesk_enter(p_org, p_user, p_key, p_version, p_now);
  END IF;
  PERFORM set_config('app.organisation_id', p_org::text, true);
  SELECT t.last_used_at INTO v_last
    FROM oauth_tokens t
    JOIN oauth_clients c ON c.organisation_id = t.organisation_id AND c.id = t.client_id
    JOIN users u ON u.organisation_id = t.organisation_id AND u.id = t.user_id
   WHERE t.organisation_id = p_org AND t.id = p_token AND t.user_id = p_user AND t.kind = 'access'
     AND t.revoked_at IS NULL AND t.expires_at > p_now AND c.disabled_at IS NULL
     AND u.auth_version = p_version;
  IF NOT FOUND THEN
    RETURN 'stale';
  END IF;
  IF v_last IS NULL OR v_last < p_now - interval '60 seconds' THEN
    UPDATE oauth_tokens SET last_used_at = p_now
     WHERE organisation_id = p_org AND id = p_token
       AND (last_used_at IS NULL OR last_used_at < p_now - interval '60 seconds');
  END IF;
  RETURN 'ok';
END
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_enter(uuid, uuid, uuid, integer, timestamptz, uuid) TO actiondesk_app;
