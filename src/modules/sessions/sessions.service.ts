import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { keysetOf, keysetPage, SYNC_TOTAL_CAP } from '../../platform/lists/cursor';
import { type SessionRow, sessionRepository } from './sessions.repository';
import type { ListSessionsQuery, Session } from './sessions.schemas';

export interface SessionDeps {
  database: Database;
  clock: Clock;
}

function toSession(row: SessionRow): Session {
  return {
    _id: row.id,
    sessionRequest: row.sessionRequestId,
    customer: row.customerId,
    language: row.language,
    responses: row.responses,
    documents: row.documents,
    documentsPending: row.documentsPending,
    version: row.version,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A session with its answers, documents and earlier versions (spec 4.9). */
export async function getSession(deps: SessionDeps, ctx: RequestContext, id: string) {
  return inTenant(deps.database, ctx, async (tx) => {
    const repo = sessionRepository(tx, ctx);
    const row = await repo.find(id);
    if (!row) throw new NotFound('Session not found');
    const versions = await repo.versions(row.id);
    return {
      ...toSession(row),
      history: versions
        .filter((v) => v.version !== row.version)
        .map((v) => ({
          version: v.version,
          submittedAt: iso(v.submittedAt),
          responses: v.responses,
          documents: v.documents,
        })),
    };
  });
}

export async function listSessions(deps: SessionDeps, ctx: RequestContext, query: ListSessionsQuery) {
  for (const key of ['sessionRequestId', 'customerId'] as const) {
    const value = query[key];
    if (value !== undefined && !isId(value)) throw BadRequest.field(key, 'is not a valid id', 'query');
  }
  const bound = { sessionRequestId: query.sessionRequestId, customerId: query.customerId };
  const keyset = keysetOf('sessions', query, bound);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) =>
    sessionRepository(tx, ctx).list(
      { sessionRequestId: query.sessionRequestId, customerId: query.customerId },
      query,
      keyset,
    ),
  );
  const order = keyset?.order ?? 'created';
  const page = keysetPage(
    'sessions',
    rows,
    query.limit,
    order,
    (r) => ({ at: r.createdAt, txid: r.changeTxid, id: r.id }),
    { since: keyset?.since, askedWith: query.startingAfter, filters: bound },
  );
  return {
    sessions: page.items.map(toSession),
    total: keyset ? Math.min(total, SYNC_TOTAL_CAP) : total,
    totalIsEstimate: Boolean(keyset) && total > SYNC_TOTAL_CAP,
    hasMore: keyset ? page.hasMore : (query.page - 1) * query.limit + rows.length < total,
    nextCursor: page.nextCursor,
  };
}
