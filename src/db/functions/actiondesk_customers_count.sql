-- Live since migration 0002_row_level_security (to change it: src/db/functions/README.md).
--
-- Contact totals per portfolio, kept in step with customers by statement-level triggers so that an
-- unfiltered page never counts a million rows.
CREATE OR REPLACE FUNCTION actiondesk_customers_count() RETURNS trigger
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
