-- Tenant isolation in depth: every tenant table only shows and accepts rows of the organisation named
-- by the transaction-local setting app.organisation_id. A query run without it sees nothing.
CREATE FUNCTION actiondesk_current_org() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('app.organisation_id', true), '')::uuid
$$;
--> statement-breakpoint
ALTER TABLE organisations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON organisations TO actiondesk_app
  USING (id = actiondesk_current_org()) WITH CHECK (id = actiondesk_current_org());
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'api_keys', 'portfolios', 'customers'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO actiondesk_app '
      'USING (organisation_id = actiondesk_current_org()) '
      'WITH CHECK (organisation_id = actiondesk_current_org())', t);
  END LOOP;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO actiondesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON organisations, users, api_keys, portfolios, customers TO actiondesk_app;
--> statement-breakpoint
-- Finds an API key by its public prefix before the organisation is known. SECURITY DEFINER so it can
-- look across organisations; it returns only what authentication needs and never the other rows.
CREATE FUNCTION actiondesk_find_api_key(p_prefix text)
RETURNS TABLE (key_id uuid, organisation_id uuid, user_id uuid, secret_hash text, user_status text,
               user_groups text[], auth_version integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.user_id, k.secret_hash, u.status, u.groups, u.auth_version
  FROM api_keys k
  JOIN users u ON u.organisation_id = k.organisation_id AND u.id = k.user_id
  WHERE k.prefix = p_prefix AND k.revoked_at IS NULL
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_api_key(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_api_key(text) TO actiondesk_app;
--> statement-breakpoint
-- Opens a tenant transaction: sets the organisation, confirms that the credentials the caller cached
-- are still current (user present with the same auth_version, key not revoked) and records key use at
-- most once a minute. Returns 'ok' or 'stale'; the caller re-authenticates on 'stale'. The common case
-- is one indexed lookup.
CREATE FUNCTION actiondesk_enter(p_org uuid, p_user uuid, p_key uuid, p_version integer, p_now timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
BEGIN
  PERFORM set_config('app.organisation_id', p_org::text, true);
  IF p_user IS NULL THEN
    RETURN 'ok';
  END IF;
  IF p_key IS NULL THEN
    PERFORM 1 FROM users WHERE organisation_id = p_org AND id = p_user AND auth_version = p_version;
    RETURN CASE WHEN FOUND THEN 'ok' ELSE 'stale' END;
  END IF;
  SELECT k.last_used_at INTO v_last
    FROM api_keys k
    JOIN users u ON u.organisation_id = k.organisation_id AND u.id = k.user_id
   WHERE k.organisation_id = p_org AND k.id = p_key AND k.user_id = p_user AND k.revoked_at IS NULL
     AND u.auth_version = p_version;
  IF NOT FOUND THEN
    RETURN 'stale';
  END IF;
  IF v_last IS NULL OR v_last < p_now - interval '60 seconds' THEN
    UPDATE api_keys SET last_used_at = p_now
     WHERE organisation_id = p_org AND id = p_key
       AND (last_used_at IS NULL OR last_used_at < p_now - interval '60 seconds');
  END IF;
  RETURN 'ok';
END
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_enter(uuid, uuid, uuid, integer, timestamptz) TO actiondesk_app;
--> statement-breakpoint
-- Contact search. LIKE is not leakproof, so under row-level security PostgreSQL may not use it as an
-- index condition and would scan every contact of the organisation. These functions run as the owner
-- (no RLS) but only ever read the organisation of the current transaction (actiondesk_current_org), so
-- the trigram index serves the search. Patterns are LIKE patterns (escaped by the caller); all must match.
CREATE FUNCTION actiondesk_customer_search_where(p_patterns text[], p_portfolio uuid, p_thirdparty text)
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
--> statement-breakpoint
CREATE FUNCTION actiondesk_customer_search(p_patterns text[], p_portfolio uuid, p_thirdparty text,
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
CREATE FUNCTION actiondesk_customer_search_count(p_patterns text[], p_portfolio uuid, p_thirdparty text)
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
REVOKE ALL ON FUNCTION actiondesk_customer_search(text[], uuid, text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_customer_search_count(text[], uuid, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_customer_search(text[], uuid, text, integer, integer) TO actiondesk_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_customer_search_count(text[], uuid, text) TO actiondesk_app;
--> statement-breakpoint
-- Contact totals per portfolio, kept in step with customers by statement-level triggers so that an
-- unfiltered page never counts a million rows.
CREATE FUNCTION actiondesk_customers_count() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE portfolios p SET customer_count = p.customer_count + c.n
      FROM (SELECT r.organisation_id, r.portfolio_id, count(*) AS n FROM new_rows r GROUP BY 1, 2) c
     WHERE p.organisation_id = c.organisation_id AND p.id = c.portfolio_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE portfolios p SET customer_count = p.customer_count - c.n
      FROM (SELECT r.organisation_id, r.portfolio_id, count(*) AS n FROM old_rows r GROUP BY 1, 2) c
     WHERE p.organisation_id = c.organisation_id AND p.id = c.portfolio_id;
  ELSE
    -- Only rows that moved between portfolios touch the counters, so an ordinary edit takes no lock
    -- on the portfolio row.
    UPDATE portfolios p SET customer_count = p.customer_count + c.delta
      FROM (
        SELECT m.organisation_id, m.portfolio_id, sum(m.delta) AS delta FROM (
          SELECT o.organisation_id, o.portfolio_id, -1 AS delta
            FROM old_rows o JOIN new_rows r ON r.id = o.id WHERE r.portfolio_id <> o.portfolio_id
          UNION ALL
          SELECT r.organisation_id, r.portfolio_id, 1
            FROM old_rows o JOIN new_rows r ON r.id = o.id WHERE r.portfolio_id <> o.portfolio_id
        ) m GROUP BY 1, 2
      ) c
     WHERE p.organisation_id = c.organisation_id AND p.id = c.portfolio_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_count_insert AFTER INSERT ON customers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION actiondesk_customers_count();
--> statement-breakpoint
CREATE TRIGGER customers_count_delete AFTER DELETE ON customers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION actiondesk_customers_count();
--> statement-breakpoint
CREATE TRIGGER customers_count_update AFTER UPDATE ON customers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION actiondesk_customers_count();
