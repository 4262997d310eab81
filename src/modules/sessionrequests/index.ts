// The sessionrequests module's public entry: what other modules may use.
export { escapeHtml } from './messages';
export { isOpen } from './sessionrequests.lifecycle';
export {
  type Actor,
  findActionByCode,
  type SessionRequestRow,
  sessionRequestRepository,
} from './sessionrequests.repository';
export { completeSessionRequest, openSessionRequest } from './sessionrequests.service';
export { settleExpiry } from './sessionrequests.transitions';
