-- Live since migration 0046_audit_summary_in_one_query (to change it: src/db/functions/README.md).
--
-- Every change to the organisation's records is written to the audit trail by the database itself, in
-- the same transaction: who (app.request, set with the tenant entry), what (the table's target name, the
-- operation, the changed fields: values of plain fields, the keys of changed JSON objects, secrets only
-- as set/replaced/removed), when (the request's time), from which address, under which request id.
-- Code that records its own, more telling events for a change switches this off for its transaction
-- (app.audit_rows = off). The trigger's arguments: the target name, the secret columns and the columns
-- not recorded (comma-separated); actiondesk_audit_table puts it on a table. The summary is built by one
-- query over the row's fields (a loop with a statement per field cost a create about a millisecond).
CREATE OR REPLACE FUNCTION actiondesk_audit_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_req jsonb;
  v_target text := TG_ARGV[0];
  v_hidden text[] := string_to_array(coalesce(TG_ARGV[1], ''), ',');
  v_ignored text[] := string_to_array(coalesce(TG_ARGV[2], ''), ',') || ARRAY['id', 'organisation_id', 'created_at'];
  v_old jsonb;
  v_new jsonb;
  v_row jsonb;
  v_summary jsonb;
BEGIN
  IF current_setting('app.audit_rows', true) = 'off' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN v_old := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN v_new := to_jsonb(NEW); END IF;
  v_row := coalesce(v_new, v_old);
  -- Each changed field: a secret as set/replaced/removed, an object by its changed keys, a list of
  -- records (a contact's responses, documents) by how many, never what they hold, a long value as
  -- "changed", else before and after. A removed row is summarised by what it held (as `before`).
  SELECT coalesce(jsonb_object_agg(
           actiondesk_camel(f.key),
           CASE
             WHEN f.key = ANY (v_hidden) THEN
               to_jsonb(CASE WHEN f.after = 'null'::jsonb THEN 'removed'
                             WHEN f.before = 'null'::jsonb THEN 'set' ELSE 'replaced' END)
             WHEN jsonb_typeof(f.after) = 'object' OR jsonb_typeof(f.before) = 'object' THEN
               (SELECT jsonb_build_object('keys', coalesce(jsonb_agg(k ORDER BY k), '[]'::jsonb))
                  FROM (SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(f.after) = 'object' THEN f.after ELSE '{}' END) AS k
                        UNION
                        SELECT jsonb_object_keys(CASE WHEN jsonb_typeof(f.before) = 'object' THEN f.before ELSE '{}' END)) keys
                 WHERE (f.before -> k) IS DISTINCT FROM (f.after -> k))
             WHEN actiondesk_audit_nested(f.before) OR actiondesk_audit_nested(f.after) THEN
               jsonb_build_object('items', jsonb_build_object(
                 'before', CASE WHEN jsonb_typeof(f.before) = 'array' THEN jsonb_array_length(f.before) END,
                 'after', CASE WHEN jsonb_typeof(f.after) = 'array' THEN jsonb_array_length(f.after) END))
             WHEN length(f.before::text) > 300 OR length(f.after::text) > 300 THEN '"changed"'::jsonb
             ELSE jsonb_build_object('before', f.before, 'after', f.after)
           END), '{}'::jsonb)
    INTO v_summary
    FROM (SELECT e.key,
                 CASE WHEN v_old IS NULL THEN 'null'::jsonb ELSE v_old -> e.key END AS before,
                 CASE WHEN v_new IS NULL THEN 'null'::jsonb ELSE e.value END AS after
            FROM jsonb_each(v_row) e
           WHERE NOT e.key = ANY (v_ignored)) f
   WHERE f.before IS DISTINCT FROM f.after;
  IF TG_OP = 'UPDATE' AND v_summary = '{}'::jsonb THEN
    RETURN NULL;
  END IF;
  v_req := nullif(current_setting('app.request', true), '')::jsonb;
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
