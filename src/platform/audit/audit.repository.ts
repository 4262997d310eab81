import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/audit';
import type { Tx } from '../db/database';
import type { RequestContext } from '../kernel/context';
import { newId } from '../kernel/ids';

export type AuditRow = typeof auditEvents.$inferSelect;

export interface AuditEntry {
  /** `{target}.{verb}`, e.g. `sso_provider.updated`, `user.deactivated`. */
  action: string;
  targetType: string;
  targetId: string;
  /** What changed, in plain data: field names, before and after; never a secret. */
  summary: Record<string, unknown>;
  /** For the system: which part acted (e.g. "directory sync"). */
  actorLabel?: string;
  /** Who acted when it is not the context's caller: a user signing in (no session yet). */
  actorUserId?: string;
}

/** Who acts, from the request context: the user and the credential they came through. */
function actorOf(ctx: RequestContext): Pick<AuditRow, 'actorType' | 'actorUserId' | 'actorCredentialId'> {
  // A partner application at the OAuth endpoints (as stampOf names it for the rows' records).
  if (ctx.acting)
    return {
      actorType: 'oauth_client',
      actorUserId: ctx.acting.userId,
      actorCredentialId: ctx.acting.clientId,
    };
  const c = ctx.caller;
  switch (c.kind) {
    case 'session':
      return { actorType: 'user', actorUserId: c.userId, actorCredentialId: null };
    case 'api_key':
      return { actorType: 'api_key', actorUserId: c.userId, actorCredentialId: c.apiKeyId };
    case 'bearer':
      return { actorType: 'oauth_client', actorUserId: c.userId, actorCredentialId: c.clientId };
    case 'contact':
      return { actorType: 'contact', actorUserId: null, actorCredentialId: null };
    case 'system':
      return { actorType: 'system', actorUserId: null, actorCredentialId: null };
  }
}

/**
 * The audit trail of the organisation: `record` is called inside the transaction of the change (so the
 * two commit together); `list` reads it newest first.
 */
export function auditRepository(q: Tx, ctx: RequestContext) {
  const org = eq(auditEvents.organisationId, ctx.organisationId);
  return {
    async record(entries: AuditEntry | AuditEntry[], at: Date = ctx.at): Promise<void> {
      const list = Array.isArray(entries) ? entries : [entries];
      if (list.length === 0) return;
      const actor = actorOf(ctx);
      await q.insert(auditEvents).values(
        list.map((e) => ({
          id: newId(at.getTime()),
          organisationId: ctx.organisationId,
          at,
          ...(e.actorUserId
            ? { actorType: 'user' as const, actorUserId: e.actorUserId, actorCredentialId: null }
            : actor),
          actorLabel: e.actorLabel ?? ctx.label ?? null,
          action: e.action,
          targetType: e.targetType,
          targetId: e.targetId,
          summary: e.summary,
          requestId: ctx.requestId === 'system' || ctx.requestId === 'contact' ? null : ctx.requestId,
          address: ctx.address ?? null,
        })),
      );
    },
    /**
     * The caller records its own events for the changes of this transaction (telling more than the
     * rows' changed fields): the database's row records are switched off until it ends.
     */
    async replaceRowRecords(): Promise<void> {
      await q.execute(sql`SELECT set_config('app.audit_rows', 'off', true)`);
    },
    /** Newest first; `before` is the last event of the previous page (its time and place in order). */
    async list(filter: {
      targetType?: string;
      targetId?: string;
      /** Only changes of these things (an action with its signers and answers, a contact with theirs). */
      targetIds?: readonly string[];
      action?: string;
      actorUserId?: string;
      actorType?: AuditRow['actorType'];
      actorCredentialId?: string;
      requestId?: string;
      actorLabel?: string;
      since?: Date;
      until?: Date;
      before?: { at: Date; seq: number };
      limit: number;
    }): Promise<AuditRow[]> {
      const where: SQL[] = [org];
      if (filter.targetType) where.push(eq(auditEvents.targetType, filter.targetType));
      if (filter.targetId) where.push(eq(auditEvents.targetId, filter.targetId));
      if (filter.targetIds)
        where.push(
          filter.targetIds.length ? inArray(auditEvents.targetId, [...filter.targetIds]) : sql`false`,
        );
      if (filter.action) where.push(eq(auditEvents.action, filter.action));
      if (filter.actorUserId) where.push(eq(auditEvents.actorUserId, filter.actorUserId));
      if (filter.actorLabel) where.push(eq(auditEvents.actorLabel, filter.actorLabel));
      if (filter.actorType) where.push(eq(auditEvents.actorType, filter.actorType));
      if (filter.actorCredentialId) where.push(eq(auditEvents.actorCredentialId, filter.actorCredentialId));
      if (filter.requestId) where.push(eq(auditEvents.requestId, filter.requestId));
      if (filter.since) where.push(gte(auditEvents.at, filter.since));
      if (filter.until) where.push(lte(auditEvents.at, filter.until));
      if (filter.before) {
        const b = filter.before;
        where.push(
          or(lt(auditEvents.at, b.at), and(eq(auditEvents.at, b.at), lt(auditEvents.seq, b.seq))) as SQL,
        );
      }
      return q
        .select()
        .from(auditEvents)
        .where(and(...where))
        .orderBy(desc(auditEvents.at), desc(auditEvents.seq))
        .limit(filter.limit);
    },
    async find(id: string): Promise<AuditRow | undefined> {
      const [row] = await q
        .select()
        .from(auditEvents)
        .where(and(org, eq(auditEvents.id, id)));
      return row;
    },
  };
}
