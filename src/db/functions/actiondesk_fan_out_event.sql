-- Live since migration 0010_events_webhooks (to change it: src/db/functions/README.md).
--
-- Fans an event out to the organisation's webhook endpoints that subscribe to its type, in the
-- transaction that writes the event, so a committed change always has its deliveries: one delivery
-- and one delivery job per enabled endpoint; for an endpoint the service disabled after 3 days of
-- failures, a delivery recorded as cancelled (to redeliver once it is enabled again) and no job. Runs as
-- the caller (row-level security applies: the event's organisation is the caller's).
--
-- Order: a delivery behind an earlier pending one of the same subject to the same endpoint waits (the
-- earlier one wakes it when it finishes, and after a minute it looks again by itself). The check locks
-- the earlier deliveries (FOR SHARE): an attempt being recorded meanwhile either finishes first, and is
-- then seen as no longer pending, or waits for this transaction and then wakes what it wrote
-- (webhooks.repository.ts, wakeNext).
-- The job's kind and attempts must match webhookDeliveryJob (modules/webhooks); a test checks that they do.
CREATE OR REPLACE FUNCTION actiondesk_fan_out_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event_type, subject_id,
                                    event_seq, status, next_attempt_at, last_error, created_at, updated_at)
    SELECT gen_random_uuid(), NEW.organisation_id, w.id, NEW.id, NEW.type, NEW.subject_id, NEW.seq,
           CASE WHEN w.enabled THEN 'pending' ELSE 'cancelled' END,
           CASE WHEN NOT w.enabled THEN NULL
                WHEN NEW.subject_id IS NOT NULL AND EXISTS (
                  SELECT 1 FROM webhook_deliveries p
                   WHERE p.organisation_id = NEW.organisation_id AND p.subject_id = NEW.subject_id
                     AND p.endpoint_id = w.id AND p.status = 'pending'
                     FOR SHARE)
                THEN NEW.created_at + interval '1 minute' ELSE NEW.created_at END,
           CASE WHEN w.enabled THEN NULL
                ELSE 'the webhook was disabled after failing for 3 days: redeliver once it is enabled again' END,
           NEW.created_at, NEW.created_at
      FROM webhook_endpoints w
     WHERE w.organisation_id = NEW.organisation_id
       AND (w.enabled OR w.disabled_reason IS NOT NULL)
       AND ('*' = ANY(w.events) OR NEW.type = ANY(w.events))
    RETURNING id, status, next_attempt_at
  )
  INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
  SELECT gen_random_uuid(), NEW.organisation_id, 'webhook-delivery', d.id, '{}'::jsonb, 'pending',
         d.next_attempt_at, 8, NEW.created_at
    FROM d WHERE d.status = 'pending';
  RETURN NULL;
END
$$;
