-- Live since migration 0027_audit_rows (to change it: src/db/functions/README.md).
--
-- Whether a JSON value is a list of records (objects or lists): the audit trail records only how many
-- items such a list has, never what they hold (actiondesk_audit_row).
CREATE OR REPLACE FUNCTION actiondesk_audit_nested(p jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(p) = 'array'
     AND EXISTS (SELECT 1 FROM jsonb_array_elements(p) e WHERE jsonb_typeof(e) IN ('object', 'array'))
$$;
