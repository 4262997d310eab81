import type { Tx } from '../../platform/db/database';
import type { EventType } from '../../platform/events/event-types';
import { eventRepository } from '../../platform/events/events.repository';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { Conflict, NotFound } from '../../platform/kernel/errors';
import { actionEventSource, signerEventSource } from './event-data.repository';
import { isOpen, refusalOf, type Transition, transitions } from './sessionrequests.lifecycle';
import { type Actor, type SessionRequestRow, sessionRequestRepository } from './sessionrequests.repository';
import { closingJobKinds } from './sessionrequests.view';

/**
 * Locks the action and applies `transition`, or throws 409 naming its current status. An open action
 * whose expiry has passed is expired first, so a late caller sees `expired`, never a stale open state.
 * Closing transitions cancel the action's pending notifications and expiry job.
 */
/** The event each transition records. */
const eventOf: Record<Transition, EventType> = {
  open: 'sessionrequest.opened',
  complete: 'sessionrequest.completed',
  reopen: 'sessionrequest.reopened',
  deactivate: 'sessionrequest.deactivated',
  expire: 'sessionrequest.expired',
  decline: 'sessionrequest.declined',
};

export interface TransitionDeps {
  clock: Clock;
  /** For the action's link in its events. */
  baseUrl: string;
}

/**
 * Records events about an action (its data computed by the database: docs/webhooks.md), in the
 * caller's transaction. `sessionId` names a campaign visitor's session.
 */
export function recordActionEvents(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  types: EventType[],
  sessionId: string | null = null,
): Promise<void> {
  return eventRepository(tx, ctx).recordFrom(
    types,
    actionEventSource(ctx, id, deps.baseUrl, sessionId),
    deps.clock.now(),
  );
}

/** Records events about one signer of an action (the action's data plus `signer`), in the caller's transaction. */
export function recordSignerEvents(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  signerId: string,
  types: EventType[],
): Promise<void> {
  return eventRepository(tx, ctx).recordFrom(
    types,
    signerEventSource(ctx, id, signerId, deps.baseUrl),
    deps.clock.now(),
  );
}

export async function applyTransition(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  transition: Transition,
  actor: Actor,
  change: Partial<SessionRequestRow> = {},
): Promise<SessionRequestRow> {
  const repo = sessionRequestRepository(tx, ctx);
  let current = await repo.find(id, { forUpdate: true });
  if (!current) throw new NotFound('Session request not found');
  const now = deps.clock.now();
  // (When the transition is then refused, the 409 rolls this expiry back; the expiry job, due at
  // expiresAt, records it.)
  if (transition !== 'expire') current = await settleExpiry(deps, tx, ctx, current);
  const rule = transitions[transition];
  if (!rule.from.includes(current.status)) {
    throw Conflict.state(refusalOf(transition, current.status), 'status', current.status);
  }
  return move(deps, tx, ctx, current, transition, actor, now, change);
}

/**
 * Expires an open action (locked by the caller) whose expiry has passed; returns it as it now is. An
 * action whose contact (or every signer) finished in time is not expired while its documents are made.
 */
export async function settleExpiry(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  current: SessionRequestRow,
): Promise<SessionRequestRow> {
  const now = deps.clock.now();
  if (!isOpen(current.status) || !current.expiresAt || current.expiresAt > now) return current;
  // Everything the contact had to do was done in time: the documents being made still complete it.
  if (await sessionRequestRepository(tx, ctx).awaitingDocuments(current.id)) return current;
  return move(deps, tx, ctx, current, 'expire', { actor: 'system', userId: null }, now, {});
}

async function move(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  current: SessionRequestRow,
  transition: Transition,
  actor: Actor,
  now: Date,
  change: Partial<SessionRequestRow>,
): Promise<SessionRequestRow> {
  const to = transitions[transition].to;
  const closing = to === 'completed' || to === 'deactivated' || to === 'expired' || to === 'declined';
  const stamp =
    to === 'completed'
      ? { completedAt: now }
      : to === 'opened'
        ? { openedAt: now }
        : closing
          ? { closedAt: now }
          : {};
  const row = await sessionRequestRepository(tx, ctx).transition(
    current,
    to,
    { ...stamp, ...change },
    actor,
    now,
  );
  if (closing) await jobRepository(tx, ctx).cancelPending(current.id, closingJobKinds, `action ${to}`, now);
  await recordActionEvents(deps, tx, ctx, current.id, [eventOf[transition]]);
  return row;
}
