-- Live since migration 0053_test_mode (to change it: src/db/functions/README.md).
--
-- The test organisation of the transaction's organisation (issue 31, docs/decisions/0009), made on first
-- use with `p_id`: the live organisation's name, settings and logo, and a copy of each of its users (same
-- id, groups and status; no password), which actiondesk_mirror_user keeps in step from then on. Called
-- from a test organisation, answers that organisation; with a null `p_id`, the twin if there is one (null
-- if not), never making it. SECURITY DEFINER because the twin is another
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
