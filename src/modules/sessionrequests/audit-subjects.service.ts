import { inTenant } from '../../platform/db/tenant';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { type AuditSubjects, auditScope, auditSubjects } from './audit-subjects.repository';
import type { SessionRequestDeps } from './sessionrequests.service';

export type { AuditSubjects } from './audit-subjects.repository';

/** The actions named by the trail's events, and the actions and contacts of its signers and answers. */
export async function auditSubjectsOf(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  actionIds: string[],
  partIds: string[],
): Promise<AuditSubjects> {
  if (actionIds.length === 0 && partIds.length === 0) return { actions: new Map(), parts: new Map() };
  return inTenant(deps.database, ctx, (tx) => auditSubjects(tx, ctx, actionIds, partIds));
}

/**
 * The records whose changes make up one action's trail (the action, its signers, its answers) or one
 * contact's (the contact, and the same for every action they are the contact or a signer of).
 */
export async function auditScopeOf(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  scope: { actionId?: string; customerId?: string },
): Promise<string[]> {
  const action = scope.actionId && isId(scope.actionId) ? scope.actionId : null;
  const contact = scope.customerId && isId(scope.customerId) ? scope.customerId : null;
  if (!action && !contact) return [];
  const ids = await inTenant(deps.database, ctx, (tx) => auditScope(tx, ctx, action, contact));
  return [...(contact ? [contact] : []), ...(action ? [action] : []), ...ids];
}
