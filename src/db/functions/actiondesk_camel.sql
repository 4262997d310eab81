-- Live since migration 0046_audit_summary_in_one_query (to change it: src/db/functions/README.md).
--
-- A column's name as the audit trail's summaries name the field: snake_case to camelCase. One expression
-- (initcap starts each word after an underscore), so that the planner inlines it where it is called.
CREATE OR REPLACE FUNCTION actiondesk_camel(p text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT left(p, 1) || substr(replace(initcap(p), '_', ''), 2)
$$;
