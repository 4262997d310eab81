ALTER TABLE "customers" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "question_lists" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "session_requests" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "portfolios" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_org_change_idx" ON "customers" USING btree ("organisation_id","change_txid","id");--> statement-breakpoint
CREATE INDEX "session_requests_org_change_idx" ON "session_requests" USING btree ("organisation_id","change_txid","id");--> statement-breakpoint
CREATE INDEX "sessions_org_change_idx" ON "sessions" USING btree ("organisation_id","change_txid","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_change_idx" ON "webhook_deliveries" USING btree ("organisation_id","change_txid","id");--> statement-breakpoint
-- Syncs (`updatedSince`) read rows in the order their changes commit: change_txid is the transaction that
-- created the row or last changed it, and a sync lists only rows of transactions older than every one
-- still running. A row's change_txid moves when any column other than the named bookkeeping ones changes.
CREATE FUNCTION actiondesk_touch_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_ignored text[] := string_to_array(coalesce(TG_ARGV[0], ''), ',') || ARRAY['change_txid'];
BEGIN
  IF (to_jsonb(NEW) - v_ignored) IS DISTINCT FROM (to_jsonb(OLD) - v_ignored) THEN
    NEW.change_txid := pg_current_xact_id();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON customers FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('search_text');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON session_requests FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON question_lists FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('auth_version,password_hash,password_changed_at');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('last_used_at');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON portfolios FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('customer_count');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON oauth_clients FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON oauth_tokens FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('last_used_at');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON webhook_endpoints FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
CREATE TRIGGER touch_change BEFORE UPDATE ON sso_providers FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change('');
--> statement-breakpoint
-- The audit trail leaves change_txid out, as it does the other bookkeeping columns.
DROP TRIGGER audit_rows ON users;
--> statement-breakpoint
SELECT actiondesk_audit_table('users', 'user', 'password_hash', 'auth_version,updated_at,password_changed_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON api_keys;
--> statement-breakpoint
SELECT actiondesk_audit_table('api_keys', 'api_key', 'secret_hash', 'last_used_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON portfolios;
--> statement-breakpoint
SELECT actiondesk_audit_table('portfolios', 'portfolio', '', 'customer_count,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON customers;
--> statement-breakpoint
SELECT actiondesk_audit_table('customers', 'customer', '', 'search_text,updated_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON question_lists;
--> statement-breakpoint
SELECT actiondesk_audit_table('question_lists', 'question_list', '', 'updated_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON session_requests;
--> statement-breakpoint
SELECT actiondesk_audit_table('session_requests', 'session_request', 'code', 'updated_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON sessions;
--> statement-breakpoint
SELECT actiondesk_audit_table('sessions', 'session', '', 'updated_at,version,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON webhook_endpoints;
--> statement-breakpoint
SELECT actiondesk_audit_table('webhook_endpoints', 'webhook', 'secrets', 'updated_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON oauth_clients;
--> statement-breakpoint
SELECT actiondesk_audit_table('oauth_clients', 'oauth_client', 'secret_hash', 'updated_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON oauth_tokens;
--> statement-breakpoint
SELECT actiondesk_audit_table('oauth_tokens', 'oauth_token', 'token_hash', 'last_used_at,change_txid');
--> statement-breakpoint
DROP TRIGGER audit_rows ON sso_providers;
--> statement-breakpoint
SELECT actiondesk_audit_table('sso_providers', 'sso_provider', 'client_secret_sealed', 'updated_at,last_sync_at,last_sync_outcome,change_txid');
--> statement-breakpoint
-- An action or a session removed (with its contact, or with a file it held) is announced by an event, so
-- a CRM's sync drops it too (docs/api.md, "Cursors and syncing"). Written by the database in the
-- transaction of the removal, whichever way the row goes; not when its organisation is being removed.
CREATE FUNCTION actiondesk_announce_removal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_req jsonb := nullif(current_setting('app.request', true), '')::jsonb;
  v_customer jsonb := CASE WHEN OLD.customer_id IS NULL THEN 'null'::jsonb
                           ELSE jsonb_build_object('_id', OLD.customer_id) END;
  v_data jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM organisations WHERE id = OLD.organisation_id) THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'session_requests' THEN
    v_data := jsonb_build_object(
      'sessionRequest', jsonb_build_object('_id', OLD.id, 'type', to_jsonb(OLD) ->> 'type', 'status', to_jsonb(OLD) ->> 'status'),
      'customer', v_customer);
  ELSE
    v_data := jsonb_build_object(
      'session', jsonb_build_object('_id', OLD.id, 'sessionRequestId', to_jsonb(OLD) ->> 'session_request_id'),
      'customer', v_customer);
  END IF;
  INSERT INTO events (id, organisation_id, type, subject_id, data, created_at)
  VALUES (gen_random_uuid(), OLD.organisation_id, TG_ARGV[0], OLD.id, v_data,
          coalesce((v_req ->> 'at')::timestamptz, now()));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER announce_removal AFTER DELETE ON session_requests FOR EACH ROW EXECUTE FUNCTION actiondesk_announce_removal('sessionrequest.deleted');
--> statement-breakpoint
CREATE TRIGGER announce_removal AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION actiondesk_announce_removal('session.deleted');
