// The sso module's public entry: staff single sign-on through external identity providers.
export { ssoProviderRoutes } from './sso.router';
export type { SsoProvider } from './sso.schemas';
export { listProviders } from './sso.service';
