-- Issue 31: test mode (docs/decisions/0009). A live organisation may have one twin, its test organisation
-- (live_organisation_id names the live one); test credentials belong to the twin, so the row-level
-- security that keeps organisations apart keeps test records and live records apart. test_messages is the
-- twin's inbox: the e-mails and SMS its jobs would have sent.
CREATE TABLE "test_messages" (
	"id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"job_id" uuid,
	"job_kind" text,
	"subject_id" uuid,
	"to" text NOT NULL,
	"sender" text,
	"subject" text,
	"text" text NOT NULL,
	"html" text,
	"links" text[] NOT NULL,
	"code" text,
	"attachments" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "test_messages_pkey" PRIMARY KEY("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "live_organisation_id" uuid;--> statement-breakpoint
ALTER TABLE "test_messages" ADD CONSTRAINT "test_messages_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_messages_org_to_idx" ON "test_messages" USING btree ("organisation_id","to","id");--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_live_organisation_id_organisations_id_fk" FOREIGN KEY ("live_organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organisations_live_organisation_idx" ON "organisations" USING btree ("live_organisation_id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('test_messages');
--> statement-breakpoint
-- The test organisation of the transaction's organisation (issue 31, docs/decisions/0009), made on first
-- use with `p_id`: the live organisation's name, settings and logo, and a copy of each of its users (same
-- id, groups and status; no password), which actiondesk_mirror_user keeps in step from then on. Called
-- from a test organisation, answers that organisation. SECURITY DEFINER because the twin is another
-- organisation than the one the transaction may see; it only ever makes or finds the caller's own twin.
CREATE OR REPLACE FUNCTION actiondesk_test_twin(p_id uuid, p_now timestamptz)
RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_live uuid := actiondesk_current_org();
  v_twin uuid;
BEGIN
  IF v_live IS NULL THEN
    RAISE EXCEPTION 'actiondesk_test_twin: no organisation is set';
  END IF;
  IF EXISTS (SELECT 1 FROM organisations WHERE id = v_live AND live_organisation_id IS NOT NULL) THEN
    RETURN v_live;
  END IF;
  -- One twin per organisation: whoever makes it holds the lock; whoever waited finds it made.
  PERFORM pg_advisory_xact_lock(hashtext('actiondesk_test_twin'), hashtext(v_live::text));
  SELECT id INTO v_twin FROM organisations WHERE live_organisation_id = v_live;
  IF FOUND OR p_id IS NULL THEN
    RETURN v_twin;
  END IF;
  INSERT INTO organisations (id, name, password_sign_in, api_rate_limit, created_at, brand_name, brand_colour,
                             mail_sender_name, mail_reply_to, sms_sender, require_code_to_decline,
                             live_organisation_id)
  SELECT p_id, name, password_sign_in, api_rate_limit, p_now, brand_name, brand_colour, mail_sender_name,
         mail_reply_to, sms_sender, require_code_to_decline, v_live
    FROM organisations WHERE id = v_live;
  INSERT INTO organisation_logos (organisation_id, id, content_type, size, bytes, created_at)
  SELECT p_id, id, content_type, size, bytes, created_at FROM organisation_logos WHERE organisation_id = v_live;
  INSERT INTO users (id, organisation_id, email, name, kind, status, groups, auth_version, sessions_ended_at,
                     language, notify, created_at, updated_at)
  SELECT id, p_id, email, name, kind, status, groups, auth_version, sessions_ended_at, language, notify,
         p_now, p_now
    FROM users WHERE organisation_id = v_live;
  RETURN p_id;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_test_twin(uuid, timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_test_twin(uuid, timestamptz) TO actiondesk_app;
--> statement-breakpoint
-- Keeps a test organisation's users the live organisation's (issue 31): a user added, changed or removed
-- in an organisation that has a twin is added, changed or removed there too, with the same id, groups,
-- status and auth_version, so a test key or a staff user's look at the test data is refused the moment
-- the live user is deactivated or narrowed. The twin's copies never carry a password. SECURITY DEFINER
-- because the twin is another organisation than the transaction's.
CREATE OR REPLACE FUNCTION actiondesk_mirror_user() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_twin uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT id INTO v_twin FROM organisations WHERE live_organisation_id = OLD.organisation_id;
    IF FOUND THEN
      DELETE FROM users WHERE organisation_id = v_twin AND id = OLD.id;
    END IF;
    RETURN NULL;
  END IF;
  SELECT id INTO v_twin FROM organisations WHERE live_organisation_id = NEW.organisation_id;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO users (id, organisation_id, email, name, kind, status, groups, auth_version, sessions_ended_at,
                     language, notify, created_at, updated_at)
  VALUES (NEW.id, v_twin, NEW.email, NEW.name, NEW.kind, NEW.status, NEW.groups, NEW.auth_version,
          NEW.sessions_ended_at, NEW.language, NEW.notify, NEW.created_at, NEW.updated_at)
  ON CONFLICT (organisation_id, id) DO UPDATE
    SET email = EXCLUDED.email, name = EXCLUDED.name, kind = EXCLUDED.kind, status = EXCLUDED.status,
        groups = EXCLUDED.groups, auth_version = EXCLUDED.auth_version,
        sessions_ended_at = EXCLUDED.sessions_ended_at, language = EXCLUDED.language,
        notify = EXCLUDED.notify, updated_at = EXCLUDED.updated_at;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER mirror_user AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION actiondesk_mirror_user();
