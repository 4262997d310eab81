-- Live since migration 0053_test_mode (to change it: src/db/functions/README.md).
--
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
