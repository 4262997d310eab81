// The sso module's public entry: staff single sign-on through external identity providers.

export { OidcClient } from './oidc';
export { ssoSignInRoutes } from './signin.router';
export { ssoProviderRoutes } from './sso.router';
export type { SsoProvider } from './sso.schemas';
export { listProviders } from './sso.service';
