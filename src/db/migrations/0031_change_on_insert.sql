-- A row's change_txid is the transaction that wrote it, also on INSERT: a row inserted from a copy of
-- another (which carries that one's change_txid) must not take an old place in a sync.
CREATE OR REPLACE FUNCTION actiondesk_touch_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_ignored text[] := string_to_array(coalesce(TG_ARGV[0], ''), ',') || ARRAY['change_txid'];
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.change_txid := pg_current_xact_id();
  ELSIF (to_jsonb(NEW) - v_ignored) IS DISTINCT FROM (to_jsonb(OLD) - v_ignored) THEN
    NEW.change_txid := pg_current_xact_id();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON customers FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON session_requests FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON question_lists FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON portfolios FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON oauth_clients FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON oauth_tokens FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON webhook_endpoints FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
CREATE TRIGGER touch_change_insert BEFORE INSERT ON sso_providers FOR EACH ROW EXECUTE FUNCTION actiondesk_touch_change();
--> statement-breakpoint
-- Event times are kept to the millisecond, as the app writes them (the fallback when no request is known).
CREATE OR REPLACE FUNCTION actiondesk_announce_removal() RETURNS trigger
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
          coalesce((v_req ->> 'at')::timestamptz, date_trunc('milliseconds', now())));
  RETURN NULL;
END
$$;
