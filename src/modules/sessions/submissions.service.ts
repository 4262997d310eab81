import type { Tx } from '../../platform/db/database';
import type { RemovedSession } from '../../platform/events/removals';
import type { RequestContext } from '../../platform/kernel/context';
import {
  type SessionRow,
  type Submission,
  sessionRepository,
  sessionsOfRemoved,
} from './sessions.repository';

// What other modules read and record of sessions (a contact's submissions), in their transaction.

/** A session of the organisation by its id (none: not one of its sessions). */
export function sessionById(tx: Tx, ctx: RequestContext, id: string): Promise<SessionRow | undefined> {
  return sessionRepository(tx, ctx).find(id);
}

/** The session of an action (not of a campaign's visitors), read without holding it. */
export function sessionOfAction(
  tx: Tx,
  ctx: RequestContext,
  sessionRequestId: string,
): Promise<SessionRow | undefined> {
  return sessionRepository(tx, ctx).findSubmitted(sessionRequestId, null, false);
}

/**
 * The sessions that go when these actions and campaign visitors are deleted, oldest first, as their
 * `session.deleted` events tell them. The caller holds the actions and visitors locked, so none is added.
 */
export function sessionsGoingWith(
  tx: Tx,
  ctx: RequestContext,
  sessionRequestIds: string[],
  visitorIds: string[],
): Promise<RemovedSession[]> {
  return sessionsOfRemoved(tx, ctx, sessionRequestIds, visitorIds);
}

/**
 * Records a submission: a new session, or the next version of the action's (or the campaign
 * visitor's) session, every version kept.
 */
export function recordSubmission(
  tx: Tx,
  ctx: RequestContext,
  submission: Submission,
  at: Date,
  newId: () => string,
): Promise<SessionRow> {
  return sessionRepository(tx, ctx).submit(submission, at, newId);
}

/**
 * Fills in the documents of a version of a session once they are made (a report, a signed document);
 * none when a later version came in between.
 */
export function setSessionDocuments(
  tx: Tx,
  ctx: RequestContext,
  session: Pick<SessionRow, 'id' | 'version'>,
  documents: SessionRow['documents'],
  at: Date,
): Promise<SessionRow | undefined> {
  return sessionRepository(tx, ctx).setDocuments(session.id, session.version, documents, at);
}
