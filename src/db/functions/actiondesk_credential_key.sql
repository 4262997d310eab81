-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- Keeps credential_keys in step with a tenant table. Arguments: the column, and the name of the table's
-- unique constraint to report when the value is taken (in any organisation).
-- credential_keys keeps the credentials looked up before an organisation is known (API key prefixes,
-- link codes, OAuth client ids, token, code and password-link hashes) unique across organisations and
-- says which organisation holds each one; the lookup functions (actiondesk_find_*) read it first.
CREATE OR REPLACE FUNCTION actiondesk_credential_key() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_kind text := TG_TABLE_NAME || '.' || TG_ARGV[0];
  v_old text;
  v_new text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    v_old := to_jsonb(OLD) ->> TG_ARGV[0];
  END IF;
  IF TG_OP <> 'DELETE' THEN
    v_new := to_jsonb(NEW) ->> TG_ARGV[0];
  END IF;
  IF TG_OP = 'UPDATE' AND v_old IS NOT DISTINCT FROM v_new AND OLD.organisation_id = NEW.organisation_id THEN
    RETURN NEW;
  END IF;
  IF v_old IS NOT NULL THEN
    DELETE FROM credential_keys
     WHERE kind = v_kind AND value = v_old AND organisation_id = OLD.organisation_id;
  END IF;
  IF v_new IS NOT NULL THEN
    INSERT INTO credential_keys (kind, value, organisation_id)
    VALUES (v_kind, v_new, NEW.organisation_id)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'duplicate key value violates unique constraint "%"', TG_ARGV[1]
        USING ERRCODE = 'unique_violation', CONSTRAINT = TG_ARGV[1], TABLE = TG_TABLE_NAME,
              COLUMN = TG_ARGV[0], DETAIL = format('The %s is already taken.', TG_ARGV[0]);
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_credential_key() FROM PUBLIC;
