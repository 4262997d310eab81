-- Live since migration 0002_row_level_security (to change it: src/db/functions/README.md).
--
-- Tenant isolation in depth: every tenant table only shows and accepts rows of the organisation named
-- by the transaction-local setting app.organisation_id. A query run without it sees nothing.
CREATE OR REPLACE FUNCTION actiondesk_current_org() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('app.organisation_id', true), '')::uuid
$$;
