CREATE TABLE "oauth_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"family_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_client_fk" FOREIGN KEY ("organisation_id","client_id") REFERENCES "public"."oauth_clients"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_user_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_tokens_hash_key" ON "oauth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "oauth_tokens_org_client_idx" ON "oauth_tokens" USING btree ("organisation_id","client_id","expires_at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('oauth_tokens');
--> statement-breakpoint
-- A token by the hash of its value, before the organisation is known (bearer authentication), with
-- what authentication needs of its client and user. SECURITY DEFINER.
CREATE FUNCTION actiondesk_find_oauth_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, client_id uuid, user_id uuid, kind text, scopes text[],
               expires_at timestamptz, revoked_at timestamptz, client_disabled_at timestamptz,
               user_status text, user_groups text[], auth_version integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.client_id, t.user_id, t.kind, t.scopes, t.expires_at, t.revoked_at,
         c.disabled_at, u.status, u.groups, u.auth_version
  FROM oauth_tokens t
  JOIN oauth_clients c ON c.organisation_id = t.organisation_id AND c.id = t.client_id
  JOIN users u ON u.organisation_id = t.organisation_id AND u.id = t.user_id
  WHERE t.token_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_token(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_token(text) TO actiondesk_app;
