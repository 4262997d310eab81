-- Live since migration 0002_row_level_security (to change it: src/db/functions/README.md).
--
-- How many contacts the search finds (actiondesk_customer_search, which says why these functions run
-- as the owner).
CREATE OR REPLACE FUNCTION actiondesk_customer_search_count(p_patterns text[], p_portfolio uuid, p_thirdparty text)
RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_org uuid := actiondesk_current_org();
  v_count bigint;
BEGIN
  IF v_org IS NULL THEN
    RETURN 0;
  END IF;
  EXECUTE 'SELECT count(*) FROM customers WHERE ' || actiondesk_customer_search_where(p_patterns, p_portfolio, p_thirdparty)
    INTO v_count USING v_org, p_portfolio, p_thirdparty;
  RETURN v_count;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_customer_search_count(text[], uuid, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_customer_search_count(text[], uuid, text) TO actiondesk_app;
