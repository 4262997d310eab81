import type { Routes } from '../../platform/http/routes';
import type { SsoSignInDeps } from './signin.service';
import { ssoButtonRoutes } from './signin-buttons.router';
import { ssoProviderRoundTripRoutes } from './signin-provider.router';

/** Staff single sign-on (spec 5.3): e-mail first, the organisation's buttons, the provider's callback. */
export function ssoSignInRoutes(rootRoutes: Routes, api: Routes, deps: SsoSignInDeps): void {
  ssoButtonRoutes(rootRoutes, deps);
  ssoProviderRoundTripRoutes(rootRoutes, api, deps);
}
