import { and, desc, eq, gte, isNull, type SQL, sql } from 'drizzle-orm';
import { sessions, sessionVersions } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { queryRows, type Tx, uuidArray } from '../../platform/db/database';
import { cappedCount, keysetColumnsOf, keysetSql } from '../../platform/db/keyset';
import type { RemovedSession } from '../../platform/events/removals';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { type Keyset, SYNC_TOTAL_CAP } from '../../platform/lists/cursor';
import { offsetOf, type Page } from '../../platform/lists/pagination';

export type SessionRow = RowOf<typeof sessions>;
export type Submission = Omit<SessionRow, 'organisationId' | 'id' | 'version' | 'createdAt' | 'updatedAt'>;

/**
 * The sessions of these actions and of these campaign visitors, oldest first: those that go when they are
 * deleted (foreign keys). The caller holds the actions and visitors locked.
 */
export async function sessionsOfRemoved(
  q: Tx,
  ctx: RequestContext,
  sessionRequestIds: string[],
  visitorIds: string[],
): Promise<RemovedSession[]> {
  if (sessionRequestIds.length === 0 && visitorIds.length === 0) return [];
  const rows = await queryRows<{ id: string; session_request_id: string; customer_id: string | null }>(
    q,
    sql`SELECT id, session_request_id, customer_id FROM sessions
         WHERE organisation_id = ${ctx.organisationId}::uuid
           AND (session_request_id = ANY(${uuidArray(sessionRequestIds)})
                OR visitor_id = ANY(${uuidArray(visitorIds)}))
         ORDER BY created_at, id`,
  );
  return rows.map((r) => ({ id: r.id, sessionRequestId: r.session_request_id, customerId: r.customer_id }));
}

export function sessionRepository(q: Tx, ctx: RequestContext) {
  const org = eq(sessions.organisationId, ctx.organisationId);
  return {
    async find(id: string): Promise<SessionRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await q
        .select()
        .from(sessions)
        .where(and(org, eq(sessions.id, id)));
      return row;
    },
    /** The session of an action, or of one campaign visitor of it, locked (unless `lock` is false). */
    async findSubmitted(
      sessionRequestId: string,
      visitorId: string | null,
      lock = true,
    ): Promise<SessionRow | undefined> {
      const query = q
        .select()
        .from(sessions)
        .where(
          and(
            org,
            eq(sessions.sessionRequestId, sessionRequestId),
            visitorId ? eq(sessions.visitorId, visitorId) : isNull(sessions.visitorId),
          ),
        );
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },
    /**
     * Records a submission: a new session, or the next version of the action's (or the campaign
     * visitor's) session; keeps every version.
     */
    async submit(submission: Submission, at: Date, newId: () => string): Promise<SessionRow> {
      const current = await this.findSubmitted(submission.sessionRequestId, submission.visitorId);
      const [row] = current
        ? await q
            .update(sessions)
            .set({ ...submission, version: current.version + 1, updatedAt: at })
            .where(and(org, eq(sessions.id, current.id)))
            .returning()
        : await q
            .insert(sessions)
            .values({
              ...submission,
              id: newId(),
              organisationId: ctx.organisationId,
              version: 1,
              createdAt: at,
              updatedAt: at,
            })
            .returning();
      await q.insert(sessionVersions).values({
        organisationId: ctx.organisationId,
        sessionId: row!.id,
        version: row!.version,
        language: row!.language,
        answers: row!.answers,
        responses: row!.responses,
        documents: row!.documents,
        submittedAt: at,
      });
      return row!;
    },
    /**
     * Fills in the documents of version `version` of a session once they are made (a report, a signed
     * document), in the session and in that version; nothing when a later version came in between.
     */
    async setDocuments(
      sessionId: string,
      version: number,
      documents: SessionRow['documents'],
      at: Date,
    ): Promise<SessionRow | undefined> {
      const [row] = await q
        .update(sessions)
        .set({ documents, documentsPending: false, updatedAt: at })
        .where(and(org, eq(sessions.id, sessionId), eq(sessions.version, version)))
        .returning();
      if (!row) return undefined;
      await q
        .update(sessionVersions)
        .set({ documents })
        .where(
          and(
            eq(sessionVersions.organisationId, ctx.organisationId),
            eq(sessionVersions.sessionId, sessionId),
            eq(sessionVersions.version, version),
          ),
        );
      return row;
    },
    async versions(sessionId: string) {
      return q
        .select()
        .from(sessionVersions)
        .where(
          and(
            eq(sessionVersions.organisationId, ctx.organisationId),
            eq(sessionVersions.sessionId, sessionId),
          ),
        )
        .orderBy(desc(sessionVersions.version));
    },
    /** A page by `page`, or by keyset (then `limit` + 1 rows, to tell whether more follow). */
    async list(
      filter: { sessionRequestId?: string; customerId?: string },
      page: Page,
      keyset: Keyset | null,
    ) {
      const where: SQL | undefined = and(
        org,
        filter.sessionRequestId ? eq(sessions.sessionRequestId, filter.sessionRequestId) : undefined,
        filter.customerId ? eq(sessions.customerId, filter.customerId) : undefined,
      );
      const k = keyset ? keysetSql(keyset, keysetColumnsOf(sessions)) : null;
      const rows = await q
        .select()
        .from(sessions)
        .where(and(where, k?.where))
        .orderBy(...(k?.orderBy ?? [desc(sessions.createdAt), desc(sessions.id)]))
        .limit(k ? page.limit + 1 : page.limit)
        .offset(k ? 0 : offsetOf(page));
      const since = keyset?.since;
      const matching = and(where, since ? gte(sessions.updatedAt, since) : undefined);
      // A walk by cursor counts up to a cap (each of its pages would otherwise count every matching row).
      const total = keyset
        ? Number(
            (await queryRows<{ n: unknown }>(q, cappedCount(sql`sessions`, matching, SYNC_TOTAL_CAP)))[0]
              ?.n ?? 0,
          )
        : await q.$count(sessions, matching);
      return { rows, total };
    },
  };
}
