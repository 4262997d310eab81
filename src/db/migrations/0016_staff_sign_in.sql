CREATE TABLE "password_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sign_in_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"address" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"sid" varchar PRIMARY KEY NOT NULL,
	"sess" json NOT NULL,
	"expire" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "password_tokens" ADD CONSTRAINT "password_tokens_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_tokens" ADD CONSTRAINT "password_tokens_user_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_tokens_hash_key" ON "password_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_tokens_org_user_idx" ON "password_tokens" USING btree ("organisation_id","user_id");--> statement-breakpoint
CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures" USING btree ("email","at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_address_idx" ON "sign_in_failures" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "staff_sessions_expire_idx" ON "staff_sessions" USING btree ("expire");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('password_tokens');
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON staff_sessions TO actiondesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON sign_in_failures TO actiondesk_app;
--> statement-breakpoint
-- The staff accounts with this e-mail that may sign in with a password, in every organisation (the
-- organisation is not known before the password is checked). SECURITY DEFINER; returns only what the
-- sign-in needs.
CREATE FUNCTION actiondesk_find_staff_logins(p_email text)
RETURNS TABLE (organisation_id uuid, organisation_name text, user_id uuid, user_name text,
               password_hash text, user_status text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.organisation_id, o.name, u.id, u.name, u.password_hash, u.status
  FROM users u JOIN organisations o ON o.id = u.organisation_id
  WHERE lower(u.email) = lower(p_email) AND u.kind = 'staff'
  ORDER BY o.created_at, u.organisation_id
  LIMIT 20
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_staff_logins(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_staff_logins(text) TO actiondesk_app;
--> statement-breakpoint
-- A password link by the hash of its token, before the organisation is known. SECURITY DEFINER.
CREATE FUNCTION actiondesk_find_password_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, user_id uuid, expires_at timestamptz,
               used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.user_id, t.expires_at, t.used_at
  FROM password_tokens t WHERE t.token_hash = p_hash
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_password_token(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_password_token(text) TO actiondesk_app;
