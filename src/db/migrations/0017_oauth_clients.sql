CREATE TABLE "oauth_clients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"secret_hash" text,
	"secret_rotated_at" timestamp with time zone,
	"grants" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"redirect_uris" text[] DEFAULT '{}'::text[] NOT NULL,
	"service_user_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "oauth_clients_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_service_user_fk" FOREIGN KEY ("organisation_id","service_user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_clients_client_id_key" ON "oauth_clients" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "oauth_clients_org_created_idx" ON "oauth_clients" USING btree ("organisation_id","created_at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('oauth_clients');
--> statement-breakpoint
-- A client by its public client_id, before the organisation is known (the token endpoint).
-- SECURITY DEFINER; returns only what client authentication needs.
CREATE FUNCTION actiondesk_find_oauth_client(p_client_id text)
RETURNS TABLE (id uuid, organisation_id uuid, type text, secret_hash text, grants text[], scopes text[],
               redirect_uris text[], service_user_id uuid, disabled_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.id, c.organisation_id, c.type, c.secret_hash, c.grants, c.scopes, c.redirect_uris,
         c.service_user_id, c.disabled_at
  FROM oauth_clients c WHERE c.client_id = p_client_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_oauth_client(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_oauth_client(text) TO actiondesk_app;
