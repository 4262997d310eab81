import { and, asc, eq, sql } from 'drizzle-orm';
import { webhookEndpoints } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { Tx } from '../../platform/db/database';
import { keysetColumnsOf, walkRows } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Walk } from '../../platform/lists/cursor';

export type EndpointRow = RowOf<typeof webhookEndpoints>;
export type NewEndpoint = Omit<typeof webhookEndpoints.$inferInsert, 'organisationId'>;

/** The organisation's webhooks (their endpoints): what the API lists and changes, and their failing streak. */
export function webhookRepository(q: Tx, ctx: RequestContext) {
  const org = eq(webhookEndpoints.organisationId, ctx.organisationId);
  return {
    async list(): Promise<EndpointRow[]> {
      return q
        .select()
        .from(webhookEndpoints)
        .where(org)
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    },
    /** Every row (oldest first), or one page of a walk by cursor. */
    walk(walk: Walk | null) {
      return walkRows<EndpointRow>(q, keysetColumnsOf(webhookEndpoints), org, walk);
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
      if (!isId(id)) return false;
      const rows = await q
        .delete(webhookEndpoints)
        .where(and(org, eq(webhookEndpoints.id, id)))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
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
