import { and, eq, sql } from 'drizzle-orm';
import { files } from '../../db/schema';
import { queryRows, type Tx, uuidArray } from '../../platform/db/database';
import type { RemovedAction } from '../../platform/events/removals';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';

export type FileRow = typeof files.$inferSelect;

/**
 * The organisation's files, and the actions and campaign visitors a cascading delete takes along (what
 * holds a file, and deleting the files nothing holds: file-holders.repository.ts).
 */
export function fileRepository(q: Tx, ctx: RequestContext) {
  const org = eq(files.organisationId, ctx.organisationId);
  const orgId = sql`${ctx.organisationId}::uuid`;
  return {
    async insert(row: Omit<FileRow, 'organisationId'>): Promise<FileRow> {
      const [inserted] = await q
        .insert(files)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return inserted!;
    },
    /**
     * `lock: 'share'` keeps the file from being deleted until the transaction ends (a new reference to
     * it); `lock: 'update'` waits for such transactions, so what holds the file is then known.
     */
    async find(id: string, opts: { lock?: 'share' | 'update' } = {}): Promise<FileRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(files)
        .where(and(org, eq(files.id, id)));
      const [row] = opts.lock ? await query.for(opts.lock) : await query;
      return row;
    },
    async remove(id: string): Promise<FileRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await q
        .delete(files)
        .where(and(org, eq(files.id, id)))
        .returning();
      return row;
    },
    /**
     * Locks these actions and campaign visitors before they are deleted, so no session is added to them
     * meanwhile; answers the actions as they are now, oldest first.
     */
    async lockRemoved(sessionRequestIds: string[], visitorIds: string[]): Promise<RemovedAction[]> {
      if (sessionRequestIds.length === 0 && visitorIds.length === 0) return [];
      const [locked] = await queryRows<{ actions: RemovedAction[] | null }>(
        q,
        sql`WITH a AS (
              SELECT id, type, status, customer_id, created_at FROM session_requests
               WHERE organisation_id = ${orgId} AND id = ANY(${uuidArray(sessionRequestIds)})
                 FOR UPDATE),
            v AS (
              SELECT id FROM campaign_visitors
               WHERE organisation_id = ${orgId} AND id = ANY(${uuidArray(visitorIds)})
                 FOR UPDATE)
            SELECT (SELECT json_agg(json_build_object('id', id, 'type', type, 'status', status,
                                                      'customerId', customer_id)
                                    ORDER BY created_at, id) FROM a) AS actions,
                   (SELECT count(*) FROM v) AS visitors -- read, so that the visitors are locked`,
      );
      return locked?.actions ?? [];
    },
    /** Deletes these campaign visitors; their sessions and session versions go with them (foreign keys). */
    async removeVisitors(visitorIds: string[]): Promise<number> {
      if (visitorIds.length === 0) return 0;
      const rows = await queryRows<{ id: string }>(
        q,
        sql`DELETE FROM campaign_visitors
             WHERE organisation_id = ${orgId} AND id = ANY(${uuidArray(visitorIds)})
         RETURNING id`,
      );
      return rows.length;
    },
    /** Deletes these actions; their history, sessions and session versions go with them (foreign keys). */
    async removeActions(sessionRequestIds: string[]): Promise<number> {
      if (sessionRequestIds.length === 0) return 0;
      const rows = await queryRows<{ id: string }>(
        q,
        sql`DELETE FROM session_requests
             WHERE organisation_id = ${orgId} AND id = ANY(${uuidArray(sessionRequestIds)})
         RETURNING id`,
      );
      return rows.length;
    },
  };
}
