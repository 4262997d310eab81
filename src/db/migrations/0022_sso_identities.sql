CREATE TABLE "sso_identities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_identities_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_provider_fk" FOREIGN KEY ("organisation_id","provider_id") REFERENCES "public"."sso_providers"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_identities_provider_subject_key" ON "sso_identities" USING btree ("organisation_id","provider_id","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_identities_provider_user_key" ON "sso_identities" USING btree ("organisation_id","provider_id","user_id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('sso_identities');
--> statement-breakpoint
-- The single sign-on buttons for an e-mail address, before the organisation is known: the enabled
-- providers of each organisation where the address has an active staff account. (Just-in-time users
-- come through their organisation's own sign-in address: a domain named by one organisation must not
-- put its buttons in front of another organisation's staff.) SECURITY DEFINER; at most 20.
CREATE FUNCTION actiondesk_find_sso_providers(p_email text)
RETURNS TABLE (organisation_id uuid, organisation_name text, provider_id uuid, provider_name text,
               provider_type text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT p.organisation_id, o.name, p.id, p.name, p.type
  FROM sso_providers p JOIN organisations o ON o.id = p.organisation_id
  WHERE p.enabled AND EXISTS (
    SELECT 1 FROM users u WHERE u.organisation_id = p.organisation_id
      AND lower(u.email) = lower(p_email) AND u.kind = 'staff' AND u.status = 'active')
  ORDER BY o.created_at, p.organisation_id, p.created_at, p.id
  LIMIT 20
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_sso_providers(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_sso_providers(text) TO actiondesk_app;
