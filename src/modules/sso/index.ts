// The sso module's public entry: staff single sign-on through external identity providers.

export { directorySyncHandler } from './directory-sync';
export { directorySyncJob } from './directory-sync.job';
export { OidcClient } from './oidc';
export { ssoSignInRoutes } from './signin.router';
export { ssoProviderRoutes } from './sso.router';
export type { SsoProvider } from './sso.schemas';
export { CreateSsoProvider, UpdateSsoProvider } from './sso.schemas';
export {
  callbackUrl,
  createProvider,
  deleteProvider,
  getProvider,
  getSignInSettings,
  listProviders,
  type ProviderDeps,
  requestSync,
  setSignInSettings,
  updateProvider,
} from './sso.service';
