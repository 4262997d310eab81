-- Live since migration 0002_row_level_security (to change it: src/db/functions/README.md).
--
-- Contact search. LIKE is not leakproof, so under row-level security PostgreSQL may not use it as an
-- index condition and would scan every contact of the organisation. These functions run as the owner
-- (no RLS) but only ever read the organisation of the current transaction (actiondesk_current_org), so
-- the trigram index serves the search. Patterns are LIKE patterns (escaped by the caller); all must match.
-- A page of the contacts found, newest first.
CREATE OR REPLACE FUNCTION actiondesk_customer_search(p_patterns text[], p_portfolio uuid, p_thirdparty text,
                                           p_limit integer, p_offset integer)
RETURNS SETOF customers
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_org uuid := actiondesk_current_org();
BEGIN
  IF v_org IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY EXECUTE
    'SELECT * FROM customers WHERE ' || actiondesk_customer_search_where(p_patterns, p_portfolio, p_thirdparty)
    || ' ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5'
    USING v_org, p_portfolio, p_thirdparty, p_limit, p_offset;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_customer_search(text[], uuid, text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_customer_search(text[], uuid, text, integer, integer) TO actiondesk_app;
