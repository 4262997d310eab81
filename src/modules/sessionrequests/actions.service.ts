import type { SignerTrailEntry } from '../../db/schema';
import type { Database, Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import {
  type ActionHit,
  findActionByCode,
  type SessionRequestRow,
  sessionRequestRepository,
} from './sessionrequests.repository';
import { type SignerChange, type SignerRow, signerRepository } from './signers.repository';

// What other modules read and change of actions and their signers, in their transaction: the
// contact's pages, the signing and report jobs, the wizard. State changes of an action itself go
// through the use cases (sessionrequests.service.ts, sessionrequests.transitions.ts).

/**
 * The action a public link's code opens, with its organisation, found before the organisation is
 * known (none: no such code).
 */
export function actionOfCode(database: Database, code: string): Promise<ActionHit | undefined> {
  return findActionByCode(database.db, code);
}

/** An action of the organisation by id; `forUpdate` / `forShare` hold its row to the transaction's end. */
export function actionById(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  opts: { forUpdate?: boolean; forShare?: boolean } = {},
): Promise<SessionRequestRow | undefined> {
  return sessionRequestRepository(tx, ctx).find(id, opts);
}

/** Keeps the contact's answers so far (a draft), to come back to. */
export function saveActionDraft(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  draft: SessionRequestRow['draft'],
  at: Date,
): Promise<void> {
  return sessionRequestRepository(tx, ctx).saveDraft(id, draft, at);
}

/** An action's signers, in their order. */
export function signersOf(tx: Tx, ctx: RequestContext, sessionRequestId: string): Promise<SignerRow[]> {
  return signerRepository(tx, ctx).ofAction(sessionRequestId);
}

/** Changes a signer's state, adding `trail` to what its audit page shows. */
export function changeSigner(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  change: SignerChange,
  at: Date,
  trail: SignerTrailEntry[] = [],
) {
  return signerRepository(tx, ctx).update(id, change, at, trail);
}
