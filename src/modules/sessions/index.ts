// The sessions module's public entry: what other modules may use.
export { renderReport } from './report';
export type { SessionRow } from './sessions.repository';
export { sessionRoutes } from './sessions.router';
export type { Session } from './sessions.schemas';
export { listSessions } from './sessions.service';
export {
  recordSubmission,
  sessionById,
  sessionOfAction,
  sessionsGoingWith,
  setSessionDocuments,
} from './submissions.service';
