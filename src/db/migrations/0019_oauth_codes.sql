CREATE TABLE "oauth_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text[] NOT NULL,
	"code_challenge" text,
	"code_challenge_method" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_client_fk" FOREIGN KEY ("organisation_id","client_id") REFERENCES "public"."oauth_clients"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_user_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_hash_key" ON "oauth_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "oauth_codes_org_expires_idx" ON "oauth_codes" USING btree ("organisation_id","expires_at");--> statement-breakpoint
CREATE INDEX "oauth_tokens_org_family_idx" ON "oauth_tokens" USING btree ("organisation_id","family_id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('oauth_codes');
--> statement-breakpoint
-- An authorization code by the hash of its value, before the organisation is known (token endpoint).
CREATE FUNCTION actiondesk_find_oauth_code(p_hash text)
RETURNS TABLE (id uuid, organisation_id uuid, client_id uuid, user_id uuid, redirect_uri text, scopes text[],
               code_challenge text, code_challenge_method text, expires_at timestamptz, used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.client_id, k.user_id, k.redirect_uri, k.scopes, k.code_challenge,
         k.code_challenge_method, k.expires_at, k.used_at
  FROM oauth_codes k WHERE k.code_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_code(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_code(text) TO actiondesk_app;
--> statement-breakpoint
-- The token lookup also answers the refresh family, its client's public id and when it was last used.
DROP FUNCTION actiondesk_find_oauth_token(text);
--> statement-breakpoint
CREATE FUNCTION actiondesk_find_oauth_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, client_id uuid, user_id uuid, kind text, scopes text[],
               expires_at timestamptz, revoked_at timestamptz, client_disabled_at timestamptz,
               user_status text, user_groups text[], auth_version integer, family_id uuid,
               created_at timestamptz, last_used_at timestamptz, public_client_id text, user_kind text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.client_id, t.user_id, t.kind, t.scopes, t.expires_at, t.revoked_at,
         c.disabled_at, u.status, u.groups, u.auth_version, t.family_id, t.created_at, t.last_used_at,
         c.client_id, u.kind
  FROM oauth_tokens t
  JOIN oauth_clients c ON c.organisation_id = t.organisation_id AND c.id = t.client_id
  JOIN users u ON u.organisation_id = t.organisation_id AND u.id = t.user_id
  WHERE t.token_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_token(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_token(text) TO actiondesk_app;
--> statement-breakpoint
-- Opens a tenant transaction for an OAuth bearer token (the platform caches tokens briefly, as it does
-- API keys): confirms the token is still live — not revoked, not expired, its client enabled, its user
-- unchanged — and records its use at most once a minute. Without a token: the five-argument entry.
CREATE FUNCTION actiondesk_enter(p_org uuid, p_user uuid, p_key uuid, p_version integer, p_now timestamptz,
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
