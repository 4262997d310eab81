import { and, count, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import { events, type WebhookDeliveryStatus, webhookDeliveries } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { type Queryable, queryRows, type Tx } from '../../platform/db/database';
import { cappedCount, keysetSql } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { type Keyset, SYNC_TOTAL_CAP } from '../../platform/lists/cursor';
import { offsetOf, type Page } from '../../platform/lists/pagination';

export type DeliveryRow = RowOf<typeof webhookDeliveries>;
export type EventRow = typeof events.$inferSelect;

/** A walk by cursor (`limit` + 1 rows): newest first by (created_at, id), or a sync in commit order. */
async function walkDeliveries(
  q: Queryable,
  where: SQL | undefined,
  keyset: Keyset,
  limit: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const columns = {
    table: webhookDeliveries,
    created: webhookDeliveries.createdAt,
    updated: webhookDeliveries.updatedAt,
    txid: webhookDeliveries.changeTxid,
    id: webhookDeliveries.id,
    // Deliveries of one request share their time: the newest event first, as by `page`.
    seq: webhookDeliveries.eventSeq,
  };
  const k = keysetSql(keyset, columns);
  const rows = await q
    .select()
    .from(webhookDeliveries)
    .where(and(where, k.where))
    .orderBy(...k.orderBy)
    .limit(limit + 1);
  const since = keyset.since;
  const matching = and(where, since ? gte(webhookDeliveries.updatedAt, since) : undefined);
  const [counted] = await queryRows<{ n: unknown }>(
    q,
    cappedCount(sql`webhook_deliveries`, matching, SYNC_TOTAL_CAP),
  );
  return { rows, total: Number(counted?.n ?? 0) };
}

/** The webhooks' delivery log as the API reads and changes it: listing, redelivering, cancelling. */
export function deliveryRepository(q: Tx, ctx: RequestContext) {
  const dOrg = eq(webhookDeliveries.organisationId, ctx.organisationId);
  return {
    async deliveries(
      endpointId: string,
      filter: { status?: WebhookDeliveryStatus; eventType?: string },
      page: Page,
      keyset: Keyset | null = null,
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      const where = and(
        dOrg,
        eq(webhookDeliveries.endpointId, endpointId),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.eventType ? eq(webhookDeliveries.eventType, filter.eventType) : undefined,
      );
      if (keyset) return walkDeliveries(q, where, keyset, page.limit);
      const rows = await q
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(
          desc(webhookDeliveries.createdAt),
          desc(webhookDeliveries.eventSeq),
          desc(webhookDeliveries.id),
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
    /** Whether a job is still queued or running for the delivery. */
    async hasLiveJob(deliveryId: string): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(
        q,
        sql`SELECT j.id FROM jobs j
             WHERE j.organisation_id = ${ctx.organisationId}::uuid AND j.subject_id = ${deliveryId}::uuid
               AND j.kind = 'webhook-delivery' AND j.status IN ('pending', 'running') LIMIT 1`,
      );
      return rows.length > 0;
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
    /**
     * Cancels the endpoint's queued deliveries and their jobs (the webhook was disabled); deliveries
     * being attempted right now finish and are recorded. Answers how many were cancelled.
     */
    async cancelQueued(endpointId: string, reason: string, at: Date): Promise<number> {
      const rows = await queryRows<{ id: string }>(
        q,
        sql`
        WITH cancelled AS (
          UPDATE jobs j SET status = 'cancelled', last_error = ${reason}, finished_at = ${at.toISOString()}::timestamptz
            FROM webhook_deliveries d
           WHERE d.organisation_id = ${ctx.organisationId}::uuid AND d.endpoint_id = ${endpointId}::uuid
             AND d.status = 'pending' AND j.organisation_id = d.organisation_id AND j.subject_id = d.id
             AND j.kind = 'webhook-delivery' AND j.status = 'pending'
          RETURNING d.id
        )
        UPDATE webhook_deliveries d
           SET status = 'cancelled', next_attempt_at = NULL, last_error = ${reason}, updated_at = ${at.toISOString()}::timestamptz
          FROM cancelled c
         WHERE d.id = c.id
        RETURNING d.id`,
      );
      return rows.length;
    },
  };
}
