ALTER TABLE "oauth_codes" ADD COLUMN "redirect_uri_given" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "family_revoked_at" timestamp with time zone;--> statement-breakpoint
DROP FUNCTION actiondesk_find_oauth_code(text);
--> statement-breakpoint
CREATE FUNCTION actiondesk_find_oauth_code(p_hash text)
RETURNS TABLE (id uuid, organisation_id uuid, client_id uuid, user_id uuid, redirect_uri text,
               redirect_uri_given boolean, scopes text[], code_challenge text, code_challenge_method text,
               expires_at timestamptz, used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.client_id, k.user_id, k.redirect_uri, k.redirect_uri_given, k.scopes,
         k.code_challenge, k.code_challenge_method, k.expires_at, k.used_at
  FROM oauth_codes k WHERE k.code_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_code(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_code(text) TO actiondesk_app;
