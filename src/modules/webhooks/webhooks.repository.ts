import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type DeliveryAttempt,
  events,
  type StoredWebhookSecret,
  type WebhookDeliveryStatus,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import { type Queryable, type Row, rowMapper } from '../../platform/db/database';
import { isId } from '../../platform/ids';
import { offsetOf, type Page } from '../../platform/pagination';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpoint = Omit<typeof webhookEndpoints.$inferInsert, 'organisationId'>;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof events.$inferSelect;

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

export function webhookRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(webhookEndpoints.organisationId, ctx.organisationId);
  const dOrg = eq(webhookDeliveries.organisationId, ctx.organisationId);
  return {
    async list(): Promise<EndpointRow[]> {
      return q
        .select()
        .from(webhookEndpoints)
        .where(org)
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<EndpointRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(webhookEndpoints)
        .where(and(org, eq(webhookEndpoints.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async insert(row: NewEndpoint): Promise<EndpointRow> {
      const [inserted] = await q
        .insert(webhookEndpoints)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return inserted!;
    },
    async update(
      id: string,
      change: Partial<Omit<EndpointRow, 'id' | 'organisationId' | 'createdAt'>>,
    ): Promise<EndpointRow | undefined> {
      const [row] = await q
        .update(webhookEndpoints)
        .set(change)
        .where(and(org, eq(webhookEndpoints.id, id)))
        .returning();
      return row;
    },
    async remove(id: string): Promise<boolean> {
      const rows = await q
        .delete(webhookEndpoints)
        .where(and(org, eq(webhookEndpoints.id, id)))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },
    /** Every endpoint's secrets (to reseal them with a new encryption key). */
    async allSecrets(): Promise<{ id: string; secrets: StoredWebhookSecret[] }[]> {
      return q
        .select({ id: webhookEndpoints.id, secrets: webhookEndpoints.secrets })
        .from(webhookEndpoints)
        .where(org);
    },
    async deliveries(
      endpointId: string,
      filter: { status?: WebhookDeliveryStatus; eventType?: string },
      page: Page,
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      const where = and(
        dOrg,
        eq(webhookDeliveries.endpointId, endpointId),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.eventType ? eq(webhookDeliveries.eventType, filter.eventType) : undefined,
      );
      const rows = await q
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(
          desc(webhookDeliveries.createdAt),
          desc(webhookDeliveries.eventTxid),
          desc(webhookDeliveries.eventSeq),
        )
        .limit(page.limit)
        .offset(offsetOf(page));
      const [total] = await q.select({ n: count() }).from(webhookDeliveries).where(where);
      return { rows, total: total?.n ?? 0 };
    },
    async findDelivery(id: string, opts: { forUpdate?: boolean } = {}): Promise<DeliveryRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(webhookDeliveries)
        .where(and(dOrg, eq(webhookDeliveries.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async eventsByIds(ids: string[]): Promise<EventRow[]> {
      if (ids.length === 0) return [];
      return q
        .select()
        .from(events)
        .where(and(eq(events.organisationId, ctx.organisationId), inArray(events.id, ids)));
    },
    /** Puts a finished delivery back in the queue (its job is queued by the caller). */
    async requeue(id: string, at: Date): Promise<DeliveryRow | undefined> {
      const [row] = await q
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: at, updatedAt: at })
        .where(and(dOrg, eq(webhookDeliveries.id, id)))
        .returning();
      return row;
    },
    /** Marks a delivery that will not be attempted (its webhook is disabled). */
    async cancel(id: string, reason: string, at: Date): Promise<void> {
      await q
        .update(webhookDeliveries)
        .set({ status: 'cancelled', nextAttemptAt: null, lastError: reason, updatedAt: at })
        .where(and(dOrg, eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    },
    /** The endpoint's failing streak goes on: it starts now unless it started already. Answers the row. */
    async markFailing(id: string, at: Date): Promise<EndpointRow | undefined> {
      const [row] = await q
        .update(webhookEndpoints)
        .set({
          failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`,
        })
        .where(and(org, eq(webhookEndpoints.id, id)))
        .returning();
      return row;
    },
  };
}

/** Statements the delivery worker runs in one round trip each (system context of the delivery's organisation). */
export function deliveryStatements(ctx: RequestContext) {
  return {
    /** The delivery, its endpoint and event, and whether an earlier delivery of its subject is pending. */
    load(id: string): SQL {
      return sql`
        SELECT to_jsonb(d) AS delivery, to_jsonb(w) AS endpoint, to_jsonb(e) AS event,
               (SELECT min(p.next_attempt_at) FROM webhook_deliveries p
                 WHERE p.organisation_id = d.organisation_id AND p.endpoint_id = d.endpoint_id
                   AND p.subject_id = d.subject_id AND p.status = 'pending'
                   AND (p.event_txid, p.event_seq) < (d.event_txid, d.event_seq)) AS blocked_until
          FROM webhook_deliveries d
          JOIN webhook_endpoints w ON w.organisation_id = d.organisation_id AND w.id = d.endpoint_id
          JOIN events e ON e.organisation_id = d.organisation_id AND e.id = d.event_id
         WHERE d.organisation_id = ${ctx.organisationId}::uuid AND d.id = ${id}::uuid`;
    },
    /**
     * Records an attempt. A delivery that is finished (succeeded or failed for good) lets the next
     * pending delivery of the same subject to the same endpoint go at once; a success ends the
     * endpoint's failing streak.
     */
    record(id: string, o: AttemptOutcome): SQL {
      const entry: DeliveryAttempt = {
        at: o.at.toISOString(),
        status: o.responseStatus,
        durationMs: o.durationMs,
        error: o.error,
      };
      const at = o.at.toISOString();
      const finished = o.status !== 'pending';
      return sql`
        WITH d AS (
          UPDATE webhook_deliveries
             SET status = ${o.status}, attempts = attempts + 1, next_attempt_at = ${o.nextAttemptAt?.toISOString() ?? null}::timestamptz,
                 last_attempt_at = ${at}::timestamptz, response_status = ${o.responseStatus}::integer,
                 response_body = ${o.responseBody}, duration_ms = ${o.durationMs}::integer, last_error = ${o.error},
                 request = ${JSON.stringify(o.request)}::jsonb,
                 history = (SELECT coalesce(jsonb_agg(x ORDER BY n), '[]'::jsonb) FROM (
                              SELECT x, n FROM jsonb_array_elements(history || ${JSON.stringify([entry])}::jsonb) WITH ORDINALITY AS h(x, n)
                              ORDER BY n DESC LIMIT ${HISTORY_KEPT}) kept),
                 updated_at = ${at}::timestamptz
           WHERE organisation_id = ${ctx.organisationId}::uuid AND id = ${id}::uuid
          RETURNING endpoint_id, subject_id, event_txid, event_seq
        ),
        healthy AS (
          UPDATE webhook_endpoints SET failing_since = NULL
           WHERE ${o.status === 'succeeded'} AND organisation_id = ${ctx.organisationId}::uuid
             AND id = (SELECT endpoint_id FROM d) AND failing_since IS NOT NULL
        ),
        successor AS (
          SELECT nx.id FROM webhook_deliveries nx, d
           WHERE ${finished} AND nx.organisation_id = ${ctx.organisationId}::uuid AND nx.endpoint_id = d.endpoint_id
             AND nx.subject_id = d.subject_id AND nx.status = 'pending'
             AND (nx.event_txid, nx.event_seq) > (d.event_txid, d.event_seq)
           ORDER BY nx.event_txid, nx.event_seq LIMIT 1
        ),
        woken AS (
          UPDATE jobs SET run_at = ${at}::timestamptz
           WHERE organisation_id = ${ctx.organisationId}::uuid AND kind = 'webhook-delivery' AND status = 'pending'
             AND subject_id = (SELECT id FROM successor) AND run_at > ${at}::timestamptz
        )
        SELECT endpoint_id FROM d`;
    },
  };
}

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
