// The sessionrequests module's public entry: what other modules may use.

export type { DeskFilter } from './action-reads.repository';
export { actionById, actionOfCode, changeSigner, saveActionDraft, signersOf } from './actions.service';
export {
  adviserDigestHandler,
  adviserDigestJob,
  adviserNoticeHandler,
  adviserNoticeJob,
  adviserNotices,
  notDeliveredNotice,
} from './adviser-notices.jobs';
export {
  type AuditSubjects,
  auditScopeOf,
  auditSubjectsOf,
} from './audit-subjects.service';
export { createSessionRequestIn } from './create.service';
export { type FastForwardTo, fastForward } from './fast-forward';
export { expiryHandler, notificationHandler } from './sessionrequests.jobs';
export { awaitingStatuses, isAwaiting, isOpen, isSigningType } from './sessionrequests.lifecycle';
export type { ActionHit, SessionRequestRow } from './sessionrequests.repository';
export { sessionRequestRoutes } from './sessionrequests.router';
export {
  type CreateSessionRequest,
  documentType,
  type SessionRequest,
  SessionRequestDetail,
} from './sessionrequests.schemas';
export {
  completeSessionRequest,
  deactivateSessionRequest,
  getSessionRequest,
  listSessionRequests,
  openSessionRequest,
  reopenSessionRequest,
  resendInvitation,
  type SessionRequestDeps,
} from './sessionrequests.service';
export {
  applyTransition,
  recordActionEvents,
  recordSignerEvents,
  settleExpiry,
} from './sessionrequests.transitions';
export { expiryJobType, notificationJob } from './sessionrequests.view';
export { inviteSigners } from './signers.invitations';
export type { SignerRow } from './signers.repository';
