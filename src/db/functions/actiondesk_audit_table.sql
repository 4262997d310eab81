-- Live since migration 0027_audit_rows (to change it: src/db/functions/README.md).
--
-- Puts the audit trigger (actiondesk_audit_row) on a table: p_target names its records in the trail
-- (`<target>.created`, `.updated`, `.deleted`), p_hidden lists the secret columns, recorded only as
-- set, replaced or removed, and p_ignored the columns never recorded (both comma-separated). Migrations
-- call it; the app role may not.
CREATE OR REPLACE FUNCTION actiondesk_audit_table(p_table regclass, p_target text, p_hidden text, p_ignored text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'CREATE TRIGGER audit_rows AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW '
    'EXECUTE FUNCTION actiondesk_audit_row(%L, %L, %L)', p_table, p_target, p_hidden, p_ignored);
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_audit_table(regclass, text, text, text) FROM PUBLIC;
