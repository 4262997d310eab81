// The accounts module's public entry: staff sign-in, passwords and their links.
export { passwordLinkHandler, passwordLinkJob } from './accounts.jobs';
export { accountRoutes } from './accounts.router';
export {
  type AccountsDeps,
  passwordLinkByEmail,
  pruneStaffSessions,
  sendPasswordLink,
  setPasswordByEmail,
  signIn,
  signInFailuresRetention,
} from './accounts.service';
export { rememberBrowser } from './devices';
export {
  noOrganisationPage,
  type SsoButton,
  signInPage,
  ssoChoicePage,
  ssoProblemPage,
} from './pages/account.pages';
export { browserLanguage, safeNext, staffAccountPage, staffHome } from './signin-pages.router';
