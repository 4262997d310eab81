import type { Tx } from '../db/database';
import type { RequestContext } from '../kernel/context';
import { eventRepository, type NewEvent } from './events.repository';

/** An action as it was when it was removed: what its `sessionrequest.deleted` event tells. */
export interface RemovedAction {
  id: string;
  type: string;
  status: string;
  customerId: string | null;
}

/** A session as it was when it was removed: what its `session.deleted` event tells. */
export interface RemovedSession {
  id: string;
  sessionRequestId: string;
  customerId: string | null;
}

/**
 * What one statement removes: the actions it deletes, and the sessions that go with them (or with the
 * campaign visitors it deletes).
 */
export interface Removal {
  actions: RemovedAction[];
  sessions: RemovedSession[];
}

/**
 * One statement's removal, in the order its cascade takes the rows: the actions, then the sessions of
 * each action in turn, then the other sessions (those of the campaign visitors it deletes).
 */
export function removalOf(actions: RemovedAction[], sessions: RemovedSession[]): Removal {
  const position = new Map(actions.map((a, i) => [a.id, i]));
  const rank = (s: RemovedSession) => position.get(s.sessionRequestId) ?? actions.length;
  // A stable sort: sessions of one action, or of the visitors, keep the order they were read in.
  return { actions, sessions: [...sessions].sort((x, y) => rank(x) - rank(y)) };
}

/**
 * The events announcing removed actions and sessions, so a CRM's sync drops them too (docs/api.md,
 * "Cursors and syncing"; docs/webhooks.md): for each removal in turn, its actions, then its sessions.
 * The contact's deletion and a file's cascading deletion record them in the removal's transaction, with
 * the request's time (`ctx.at`); removing an organisation announces nothing.
 *
 * Two modules remove actions and sessions, and neither may import the module that owns actions (it
 * imports both), so what the announcement says is written here, beside the catalogue of event types.
 */
export function removalEvents(removals: Removal[]): NewEvent[] {
  return removals.flatMap(({ actions, sessions }) => [
    ...actions.map(
      (a): NewEvent => ({
        type: 'sessionrequest.deleted',
        subjectId: a.id,
        data: {
          sessionRequest: { _id: a.id, type: a.type, status: a.status },
          customer: a.customerId === null ? null : { _id: a.customerId },
        },
      }),
    ),
    ...sessions.map(
      (s): NewEvent => ({
        type: 'session.deleted',
        subjectId: s.id,
        data: {
          session: { _id: s.id, sessionRequestId: s.sessionRequestId },
          customer: s.customerId === null ? null : { _id: s.customerId },
        },
      }),
    ),
  ]);
}

/** Records the events announcing `removals` in the caller's transaction, at the request's time. */
export function recordRemovals(q: Tx, ctx: RequestContext, removals: Removal[]): Promise<void> {
  return eventRepository(q, ctx).record(removalEvents(removals), ctx.at);
}
