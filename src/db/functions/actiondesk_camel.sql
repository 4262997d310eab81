-- Live since migration 0027_audit_rows (to change it: src/db/functions/README.md).
--
-- A column's name as the audit trail's summaries name the field: snake_case to camelCase.
CREATE OR REPLACE FUNCTION actiondesk_camel(p text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN i = 1 THEN w ELSE initcap(w) END, '' ORDER BY i)
  FROM unnest(string_to_array(p, '_')) WITH ORDINALITY AS t(w, i)
$$;
