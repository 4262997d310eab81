import { type SQL, sql } from 'drizzle-orm';
import {
  type DeliveryAttempt,
  events,
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import { type Row, rowMapper, uuidArray } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import type { DeliveryRow, EventRow } from './deliveries.repository';
import type { EndpointRow } from './webhooks.repository';

/** How many attempts a delivery's log keeps (the latest). */
const HISTORY_KEPT = 30;

export interface AttemptOutcome {
  at: Date;
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  request: { url: string; headers: Record<string, string> };
}

const endpointFromRaw = rowMapper(webhookEndpoints);
const deliveryFromRaw = rowMapper(webhookDeliveries);
const eventFromRaw = rowMapper(events);

/** What sending one delivery needs, read in one statement. */
export interface DeliveryToSend {
  delivery: DeliveryRow;
  endpoint: EndpointRow;
  event: EventRow;
  /** When an earlier delivery of the same subject to the same endpoint is pending: its next attempt. */
  blockedUntil: Date | null;
}

/** A finished attempt to record, with what the statements after it need. */
export interface RecordedAttempt {
  deliveryId: string;
  endpointId: string;
  subjectId: string | null;
  eventSeq: number;
  outcome: AttemptOutcome;
}

/**
 * Statements the delivery worker runs for many deliveries at once (system context of their
 * organisation): one statement serves every delivery claimed together. Rows named by id are found by
 * their primary keys, which lead with the id (migration 0049): row-level security keeps them to the
 * organisation.
 */
export function deliveryStatements(ctx: RequestContext) {
  const org = sql`${ctx.organisationId}::uuid`;
  return {
    /** The deliveries, their endpoints and events, and whether an earlier delivery of their subject is pending. */
    load(ids: string[]): SQL {
      return sql`
        SELECT d.id AS id, to_jsonb(d) AS delivery, to_jsonb(w) AS endpoint, to_jsonb(e) AS event,
               -- An earlier pending delivery of the same subject to the same endpoint that still has a
               -- job to run it (one whose job ended without recording it holds nothing up).
               (SELECT min(p.next_attempt_at) FROM webhook_deliveries p
                 WHERE p.organisation_id = d.organisation_id AND p.subject_id = d.subject_id
                   AND p.endpoint_id = d.endpoint_id AND p.status = 'pending' AND p.event_seq < d.event_seq
                   AND EXISTS (SELECT 1 FROM jobs j
                                WHERE j.organisation_id = p.organisation_id AND j.subject_id = p.id
                                  AND j.kind = 'webhook-delivery' AND j.status IN ('pending', 'running'))) AS blocked_until
          FROM unnest(${uuidArray(ids)}) AS wanted(id)
          -- One primary-key lookup per id (OFFSET 0 keeps the planner from merging it into a scan).
          CROSS JOIN LATERAL (SELECT * FROM webhook_deliveries x WHERE x.id = wanted.id OFFSET 0) d
          JOIN webhook_endpoints w ON w.id = d.endpoint_id
          JOIN events e ON e.id = d.event_id`;
    },
    /** Records attempts: one UPDATE for all of them. */
    record(items: RecordedAttempt[]): SQL {
      const rows = sql.join(
        items.map(({ deliveryId, outcome: o }) => {
          const entry: DeliveryAttempt = {
            at: o.at.toISOString(),
            status: o.responseStatus,
            durationMs: o.durationMs,
            error: o.error,
          };
          return sql`(${deliveryId}::uuid, ${o.status}::text, ${o.nextAttemptAt?.toISOString() ?? null}::timestamptz,
                      ${o.at.toISOString()}::timestamptz, ${o.responseStatus}::integer, ${o.responseBody}::text,
                      ${o.durationMs}::integer, ${o.error}::text, ${JSON.stringify(o.request)}::jsonb,
                      ${JSON.stringify([entry])}::jsonb)`;
        }),
        sql`, `,
      );
      return sql`
        UPDATE webhook_deliveries d
           SET status = v.status, attempts = d.attempts + 1, next_attempt_at = v.next_attempt_at,
               last_attempt_at = v.at, response_status = v.response_status, response_body = v.response_body,
               duration_ms = v.duration_ms, last_error = v.last_error, request = v.request,
               history = (CASE WHEN jsonb_array_length(d.history) >= ${HISTORY_KEPT} THEN d.history - 0 ELSE d.history END) || v.entry,
               updated_at = v.at
          FROM (VALUES ${rows}) AS v(id, status, next_attempt_at, at, response_status, response_body, duration_ms, last_error, request, entry)
         WHERE d.id = v.id AND d.status = 'pending'`;
    },
    /**
     * Locks the deliveries about to be recorded, in id order: the fan-out trigger locks a subject's
     * pending deliveries in the same order, so the two never wait for each other in a cycle.
     */
    lockForRecord(ids: string[]): SQL {
      return sql`
        SELECT d.id FROM webhook_deliveries d
         WHERE d.id = ANY(${uuidArray(ids)})
         ORDER BY d.id FOR UPDATE`;
    },
    /**
     * Puts a delivery's job back to wait behind an earlier pending delivery of its subject (the run
     * does not count as an attempt). The earlier ones are read with a share lock: one whose outcome is
     * being recorded right now is waited for, and then, no longer pending, lets this job run at once —
     * otherwise its wake (wakeNext) could pass this job by while it is still running.
     */
    deferBehind(
      d: { subjectId: string; endpointId: string; eventSeq: number },
      job: { id: string; leaseToken: string },
      until: Date,
      now: Date,
    ): SQL {
      return sql`
        UPDATE jobs j
           SET status = 'pending', attempts = j.attempts - 1, lease_token = NULL, locked_until = NULL,
               run_at = CASE WHEN EXISTS (
                 SELECT 1 FROM (
                   SELECT p.id FROM webhook_deliveries p
                    WHERE p.organisation_id = ${org} AND p.subject_id = ${d.subjectId}::uuid
                      AND p.endpoint_id = ${d.endpointId}::uuid AND p.status = 'pending'
                      AND p.event_seq < ${d.eventSeq}::bigint
                    FOR SHARE) earlier
                  WHERE EXISTS (SELECT 1 FROM jobs pj
                                 WHERE pj.organisation_id = ${org} AND pj.subject_id = earlier.id
                                   AND pj.kind = 'webhook-delivery' AND pj.status IN ('pending', 'running')))
               THEN ${until.toISOString()}::timestamptz ELSE ${now.toISOString()}::timestamptz END
         WHERE j.id = ${job.id}::uuid AND j.lease_token = ${job.leaseToken}::uuid AND j.status = 'running'
        RETURNING j.id`;
    },
    /** A success ends its endpoint's failing streak. */
    healthy(endpointIds: string[]): SQL {
      return sql`
        UPDATE webhook_endpoints SET failing_since = NULL
         WHERE organisation_id = ${org} AND id = ANY(${uuidArray(endpointIds)}) AND failing_since IS NOT NULL`;
    },
    /**
     * Lets the next pending delivery of each finished delivery's subject to the same endpoint go now.
     * A statement of its own, after the record: it sees deliveries committed in the meantime (an event
     * written while the attempt ran waited on the record's row lock: webhookFanOut, fan-out.repository.ts).
     */
    wakeNext(items: RecordedAttempt[], at: Date): SQL {
      const rows = sql.join(
        items.map((i) => sql`(${i.endpointId}::uuid, ${i.subjectId}::uuid, ${i.eventSeq}::bigint)`),
        sql`, `,
      );
      return sql`
        UPDATE jobs j SET run_at = ${at.toISOString()}::timestamptz
          FROM (VALUES ${rows}) AS v(endpoint_id, subject_id, event_seq)
          CROSS JOIN LATERAL (
            SELECT nx.id FROM webhook_deliveries nx
             WHERE nx.organisation_id = ${org} AND nx.subject_id = v.subject_id AND nx.endpoint_id = v.endpoint_id
               AND nx.status = 'pending' AND nx.event_seq > v.event_seq
             ORDER BY nx.event_seq LIMIT 1) nx
         WHERE j.organisation_id = ${org} AND j.subject_id = nx.id AND j.kind = 'webhook-delivery'
           AND j.status = 'pending' AND j.run_at > ${at.toISOString()}::timestamptz`;
    },
  };
}

/** Reads a `load` row. */
export function toDeliveryToSend(raw: Row): DeliveryToSend {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Row;
  const blocked = raw.blocked_until;
  return {
    delivery: deliveryFromRaw(json(raw.delivery)),
    endpoint: endpointFromRaw(json(raw.endpoint)),
    event: eventFromRaw(json(raw.event)),
    blockedUntil: blocked ? new Date(blocked as string) : null,
  };
}
