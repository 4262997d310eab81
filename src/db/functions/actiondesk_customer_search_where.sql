-- Live since migration 0002_row_level_security (to change it: src/db/functions/README.md).
--
-- The WHERE clause the search runs (actiondesk_customer_search, which says why these functions run as
-- the owner): $1 is the organisation, $2 the portfolio and $3 the third-party id when given, and every
-- pattern must match the contact's search text.
CREATE OR REPLACE FUNCTION actiondesk_customer_search_where(p_patterns text[], p_portfolio uuid, p_thirdparty text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_where text := 'organisation_id = $1';
  v_pattern text;
BEGIN
  IF p_portfolio IS NOT NULL THEN
    v_where := v_where || ' AND portfolio_id = $2';
  END IF;
  IF p_thirdparty IS NOT NULL THEN
    v_where := v_where || ' AND thirdparty_id = $3';
  END IF;
  FOREACH v_pattern IN ARRAY coalesce(p_patterns, ARRAY[]::text[]) LOOP
    v_where := v_where || format(' AND search_text LIKE %L', v_pattern);
  END LOOP;
  RETURN v_where;
END
$$;
