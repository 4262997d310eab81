-- Live since migration 0031_change_on_insert (to change it: src/db/functions/README.md).
--
-- An action or a session removed (with its contact, or with a file it held) is announced by an event, so
-- a CRM's sync drops it too (docs/api.md, "Cursors and syncing"). Written by the database in the
-- transaction of the removal, whichever way the row goes; not when its organisation is being removed.
-- Event times are kept to the millisecond, as the app writes them (the fallback when no request is known).
CREATE OR REPLACE FUNCTION actiondesk_announce_removal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_req jsonb := nullif(current_setting('app.request', true), '')::jsonb;
  v_customer jsonb := CASE WHEN OLD.customer_id IS NULL THEN 'null'::jsonb
                           ELSE jsonb_build_object('_id', OLD.customer_id) END;
  v_data jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM organisations WHERE id = OLD.organisation_id) THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'session_requests' THEN
    v_data := jsonb_build_object(
      'sessionRequest', jsonb_build_object('_id', OLD.id, 'type', to_jsonb(OLD) ->> 'type', 'status', to_jsonb(OLD) ->> 'status'),
      'customer', v_customer);
  ELSE
    v_data := jsonb_build_object(
      'session', jsonb_build_object('_id', OLD.id, 'sessionRequestId', to_jsonb(OLD) ->> 'session_request_id'),
      'customer', v_customer);
  END IF;
  INSERT INTO events (id, organisation_id, type, subject_id, data, created_at)
  VALUES (gen_random_uuid(), OLD.organisation_id, TG_ARGV[0], OLD.id, v_data,
          coalesce((v_req ->> 'at')::timestamptz, date_trunc('milliseconds', now())));
  RETURN NULL;
END
$$;
