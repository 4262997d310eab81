import { type SQL, sql } from 'drizzle-orm';
import type { EventFanOut } from '../../platform/events/fan-out';
import { DISABLED_FOR_FAILING, webhookDeliveryJob } from './webhooks.delivery';

/**
 * Fans recorded events out to the organisation's webhook endpoints that subscribe to their types, in the
 * statement that records them (platform/events/fan-out.ts; docs/decisions/0008-events-fan-out-in-code.md),
 * so a committed change always has its deliveries: one delivery and one delivery job per enabled
 * endpoint; for an endpoint disabled after failing for 3 days (it has a `disabled_reason`), a delivery
 * recorded as cancelled (to redeliver once it is enabled again) and no job; an endpoint disabled
 * without a reason (by its administrator) gets neither. Runs as the caller: row-level security applies,
 * and the events' organisation is the caller's.
 *
 * Order: a delivery behind an earlier pending one of the same subject to the same endpoint waits (the
 * earlier one wakes it when it finishes, and after a minute it looks again by itself). Earlier means
 * already stored, or an earlier event of the same statement (`pending_before`). The check locks the
 * stored deliveries (FOR SHARE): an attempt being recorded meanwhile either finishes first, and is then
 * seen as no longer pending, or waits for this transaction and then wakes what it wrote
 * (delivery-statements.repository.ts, wakeNext).
 */
export const webhookFanOut: EventFanOut = (recorded: SQL): SQL[] => [
  sql`fan_out_targets AS (
    SELECT e.id AS event_id, e.organisation_id, e.type, e.subject_id, e.seq, e.created_at,
           w.id AS endpoint_id, w.enabled,
           count(*) FILTER (WHERE w.enabled) OVER (
             PARTITION BY w.id, e.subject_id ORDER BY e.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
           ) AS pending_before
      FROM ${recorded} e
      JOIN webhook_endpoints w ON w.organisation_id = e.organisation_id
     WHERE (w.enabled OR w.disabled_reason IS NOT NULL)
       AND ('*' = ANY(w.events) OR e.type = ANY(w.events)))`,
  sql`fan_out_deliveries AS (
    INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event_type, subject_id,
                                    event_seq, status, next_attempt_at, last_error, created_at, updated_at)
    SELECT gen_random_uuid(), t.organisation_id, t.endpoint_id, t.event_id, t.type, t.subject_id, t.seq,
           CASE WHEN t.enabled THEN 'pending' ELSE 'cancelled' END,
           CASE WHEN NOT t.enabled THEN NULL
                WHEN t.subject_id IS NOT NULL AND (t.pending_before > 0 OR EXISTS (
                  SELECT 1 FROM webhook_deliveries p
                   WHERE p.organisation_id = t.organisation_id AND p.subject_id = t.subject_id
                     AND p.endpoint_id = t.endpoint_id AND p.status = 'pending'
                     FOR SHARE))
                THEN t.created_at + interval '1 minute' ELSE t.created_at END,
           CASE WHEN t.enabled THEN NULL ELSE ${DISABLED_FOR_FAILING}::text END,
           t.created_at, t.created_at
      FROM fan_out_targets t
     ORDER BY t.seq
    RETURNING id, organisation_id, status, next_attempt_at, created_at)`,
  sql`fan_out_jobs AS (
    INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
    SELECT gen_random_uuid(), d.organisation_id, ${webhookDeliveryJob.kind}::text, d.id,
           ${JSON.stringify(webhookDeliveryJob.read({}))}::jsonb, 'pending', d.next_attempt_at,
           ${webhookDeliveryJob.maxAttempts}::integer, d.created_at
      FROM fan_out_deliveries d
     WHERE d.status = 'pending'
    RETURNING id)`,
];
