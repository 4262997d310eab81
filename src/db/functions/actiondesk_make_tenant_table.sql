-- Live since migration 0007_tenant_table_helper (to change it: src/db/functions/README.md).
--
-- One way to make a table a tenant table: row-level security keyed on the organisation of the open
-- transaction (actiondesk_current_org(), set by actiondesk_enter), for the app role, which gets plain
-- read/write rights. Every migration that adds a tenant table ends with
--   SELECT actiondesk_make_tenant_table('the_table');
-- and the database test checks that every table with an organisation_id has the policy.
CREATE OR REPLACE FUNCTION actiondesk_make_tenant_table(p_table regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', p_table);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO actiondesk_app '
    'USING (organisation_id = actiondesk_current_org()) '
    'WITH CHECK (organisation_id = actiondesk_current_org())', p_table);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO actiondesk_app', p_table);
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_make_tenant_table(regclass) FROM PUBLIC;
