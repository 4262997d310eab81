import { type AuditRow, auditRepository } from '../../platform/audit/audit.repository';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { eitherOf } from '../../platform/lists/cursor';
import type { AuditEvent, ListAuditEventsQuery } from './audit.schemas';

export interface AuditDeps {
  database: Database;
  clock: Clock;
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    _id: row.id,
    at: iso(row.at),
    actor: {
      type: row.actorType,
      userId: row.actorUserId,
      credentialId: row.actorCredentialId,
      label: row.actorLabel,
    },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    summary: row.summary,
    requestId: row.requestId,
    address: row.address,
  };
}

/**
 * The organisation's audit trail, newest first, a page at a time (a keyset cursor). The staff pages
 * may also narrow it to `targetIds` (an action with its signers and answers).
 */
export async function listAuditEvents(
  deps: AuditDeps,
  ctx: RequestContext,
  query: ListAuditEventsQuery,
  about?: { targetIds: readonly string[] },
) {
  if (query.actorUserId !== undefined && !isId(query.actorUserId))
    return { events: [], hasMore: false, nextCursor: null };
  const since = eitherOf(query, 'since', 'updatedSince')?.value;
  return inTenant(deps.database, ctx, async (tx) => {
    const audit = auditRepository(tx, ctx);
    let before: { at: Date; seq: number } | undefined;
    if (query.startingAfter !== undefined) {
      const last = isId(query.startingAfter) ? await audit.find(query.startingAfter) : undefined;
      if (!last) throw BadRequest.field('startingAfter', 'is not a cursor of this list', 'query');
      before = { at: last.at, seq: last.seq };
    }
    const rows = await audit.list({
      targetType: query.targetType,
      targetId: query.targetId,
      targetIds: about?.targetIds,
      action: query.action,
      actorUserId: query.actorUserId,
      actorType: query.actorType,
      actorCredentialId: query.actorCredentialId,
      requestId: query.requestId,
      actorLabel: query.actorLabel,
      since: since ? new Date(since) : undefined,
      until: query.until ? new Date(query.until) : undefined,
      before,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const hasMore = rows.length > query.limit;
    return {
      events: page.map(toAuditEvent),
      hasMore,
      nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
    };
  });
}
