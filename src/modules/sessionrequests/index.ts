// The sessionrequests module's public entry: what other modules may use.

export {
  actionById,
  actionOfCode,
  changeSigner,
  saveActionDraft,
  signersOf,
} from './actions.service';
export { createSessionRequestIn } from './create.service';
export { expiryHandler, notificationHandler } from './sessionrequests.jobs';
export { isOpen } from './sessionrequests.lifecycle';
export type { Actor, SessionRequestRow } from './sessionrequests.repository';
export { sessionRequestRoutes } from './sessionrequests.router';
export {
  type CreateSessionRequest,
  documentType,
  type SessionRequest,
  type SessionRequestDetail,
} from './sessionrequests.schemas';
export {
  completeSessionRequest,
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  openSessionRequest,
  reopenSessionRequest,
  type SessionRequestDeps,
} from './sessionrequests.service';
export {
  applyTransition,
  recordActionEvents,
  recordSignerEvents,
  settleExpiry,
  type TransitionDeps,
} from './sessionrequests.transitions';
export { EXPIRY_JOB, expiryJobType, NOTIFICATION_JOB, notificationJob } from './sessionrequests.view';
export { type InviteMoment, inviteSigners } from './signers.invitations';
export type { SignerChange, SignerRow } from './signers.repository';
