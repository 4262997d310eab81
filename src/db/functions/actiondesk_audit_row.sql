-- Live since migration 0028_audit_consents (to change it: src/db/functions/README.md).
--
-- Every change to the organisation's records is written to the audit trail by the database itself, in
-- the same transaction: who (app.request, set with the tenant entry), what (the table's target name, the
-- operation, the changed fields: values of plain fields, the keys of changed JSON objects, secrets only
-- as set/replaced/removed), when (the request's time), from which address, under which request id.
-- Code that records its own, more telling events for a change switches this off for its transaction
-- (app.audit_rows = off). The trigger's arguments: the target name, the secret columns and the columns
-- not recorded (comma-separated); actiondesk_audit_table puts it on a table.
CREATE OR REPLACE FUNCTION actiondesk_audit_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_req jsonb;
  v_target text := TG_ARGV[0];
  v_hidden text[] := string_to_array(coalesce(TG_ARGV[1], ''), ',');
  v_ignored text[] := string_to_array(coalesce(TG_ARGV[2], ''), ',');
  v_old jsonb;
  v_new jsonb;
  v_row jsonb;
  v_summary jsonb := '{}'::jsonb;
  v_key text;
  v_before jsonb;
  v_after jsonb;
  v_value jsonb;
BEGIN
  IF current_setting('app.audit_rows', true) = 'off' THEN
    RETURN NULL;
  END IF;
  v_req := nullif(current_setting('app.request', true), '')::jsonb;
  IF TG_OP <> 'INSERT' THEN v_old := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN v_new := to_jsonb(NEW); END IF;
  v_row := coalesce(v_new, v_old);
  -- A removed row is summarised by what it held (as `before`), so that it can still be told apart.
  IF TG_OP = 'DELETE' THEN
    v_new := (SELECT jsonb_object_agg(k, 'null'::jsonb) FROM jsonb_object_keys(v_old) k);
  END IF;
  BEGIN
    FOR v_key IN SELECT jsonb_object_keys(v_new) LOOP
      CONTINUE WHEN v_key IN ('id', 'organisation_id', 'created_at') OR v_key = ANY (v_ignored);
      v_before := CASE WHEN v_old IS NULL THEN 'null'::jsonb ELSE v_old -> v_key END;
      v_after := v_new -> v_key;
      CONTINUE WHEN v_before IS NOT DISTINCT FROM v_after;
      IF v_key = ANY (v_hidden) THEN
        v_value := to_jsonb(CASE WHEN v_after = 'null'::jsonb THEN 'removed'
                                 WHEN v_before = 'null'::jsonb THEN 'set' ELSE 'replaced' END);
      ELSIF jsonb_typeof(v_after) = 'object' OR jsonb_typeof(v_before) = 'object' THEN
        SELECT jsonb_build_object('keys', coalesce(jsonb_agg(k ORDER BY k), '[]'::jsonb)) INTO v_value
          FROM (SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(v_after) = 'object' THEN v_after ELSE '{}' END) AS k
                UNION
                SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(v_before) = 'object' THEN v_before ELSE '{}' END)) keys
         WHERE (v_before -> k) IS DISTINCT FROM (v_after -> k);
      ELSIF actiondesk_audit_nested(v_before) OR actiondesk_audit_nested(v_after) THEN
        -- A list of records (a contact's responses, documents): how many, never what they hold.
        v_value := jsonb_build_object('items', jsonb_build_object(
          'before', CASE WHEN jsonb_typeof(v_before) = 'array' THEN jsonb_array_length(v_before) END,
          'after', CASE WHEN jsonb_typeof(v_after) = 'array' THEN jsonb_array_length(v_after) END));
      ELSIF length(v_before::text) > 300 OR length(v_after::text) > 300 THEN
        v_value := '"changed"'::jsonb;
      ELSE
        v_value := jsonb_build_object('before', v_before, 'after', v_after);
      END IF;
      v_summary := v_summary || jsonb_build_object(actiondesk_camel(v_key), v_value);
    END LOOP;
    IF TG_OP = 'UPDATE' AND v_summary = '{}'::jsonb THEN
      RETURN NULL;
    END IF;
  END;
  INSERT INTO audit_events (id, organisation_id, at, actor_type, actor_user_id, actor_credential_id, actor_label,
                            action, target_type, target_id, summary, request_id, address)
  VALUES (gen_random_uuid(), coalesce(v_row ->> 'organisation_id', v_row ->> 'id')::uuid,
          coalesce((v_req ->> 'at')::timestamptz, date_trunc('milliseconds', now())),
          coalesce(v_req ->> 'actor', 'system'), (v_req ->> 'user')::uuid, v_req ->> 'credential',
          v_req ->> 'label',
          v_target || CASE TG_OP WHEN 'INSERT' THEN '.created' WHEN 'UPDATE' THEN '.updated' ELSE '.deleted' END,
          v_target, v_row ->> 'id', v_summary, v_req ->> 'id', v_req ->> 'address');
  RETURN NULL;
END
$$;
