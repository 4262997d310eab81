-- Live since migration 0031_change_on_insert (to change it: src/db/functions/README.md).
--
-- Syncs (`updatedSince`) read rows in the order their changes commit: change_txid is the transaction that
-- wrote the row (inserted it, or last changed it), and a sync lists only rows of transactions older than
-- every one still running. A row's change_txid moves when any column other than the named bookkeeping
-- ones (the trigger's argument) changes, and is set on INSERT too: a row inserted from a copy of another
-- (which carries that one's change_txid) must not take an old place in a sync.
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
