// The accounts module's public entry: staff sign-in, passwords and their links.
export { passwordLinkHandler, passwordLinkJob } from './accounts.jobs';
export { pruneExpiredSessions } from './accounts.repository';
export { accountRoutes, safeNext } from './accounts.router';
export {
  type AccountsDeps,
  passwordLinkByEmail,
  sendPasswordLink,
  setPasswordByAdministrator,
  setPasswordByEmail,
  signIn,
  signInFailuresRetention,
} from './accounts.service';
export { type DeviceDeps, rememberBrowser } from './devices';
export { hashPassword } from './passwords';
