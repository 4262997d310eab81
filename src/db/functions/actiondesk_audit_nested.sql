-- Live since migration 0046_audit_summary_in_one_query (to change it: src/db/functions/README.md).
--
-- Whether a JSON value is a list of records (objects or lists): the audit trail records only how many
-- items such a list has, never what they hold (actiondesk_audit_row). One expression without a subquery,
-- so that the planner inlines it (called as a function, it cost the audit row of a create 0.3 ms).
CREATE OR REPLACE FUNCTION actiondesk_audit_nested(p jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(p) = 'array'
              THEN jsonb_path_exists(p, 'strict $[*] ? (@.type() == "object" || @.type() == "array")')
              ELSE false END
$$;
