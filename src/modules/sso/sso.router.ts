import type { Routes } from '../../platform/http/routes';
import { idParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  CreateSsoProvider,
  ListProvidersQuery,
  SignInSettings,
  SsoProvider,
  SsoProviderList,
  UpdateSignInSettings,
  UpdateSsoProvider,
} from './sso.schemas';
import {
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

const tags = ['Admin: sign-in providers'];
const Params = z.object({ providerId: idParam('providerId') });

/** The administrators' API for staff single sign-on providers (spec 5.3: Integrations → OAuth Providers). */
/** Refused to test credentials: a test organisation shares its live one's staff and sign-in. */
const LIVE_ONLY = 'Sign-in is set up in live mode';

export function ssoProviderRoutes(routes: Routes, deps: ProviderDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/sso/settings',
      summary: 'Whether staff may sign in with a password',
      tags,
      permission: 'admin',
      response: SignInSettings,
    },
    ({ ctx }) => getSignInSettings(deps, ctx),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/sso/settings',
      summary: 'Switch password sign-in on or off for the organisation’s staff',
      description:
        'Off needs an enabled sign-in provider (409 otherwise); while it is off the last enabled provider cannot be disabled or removed (409). Administrators keep their password either way: the break-glass way in (each such sign-in is an audit event `user.break_glass_sign_in`). The CLI switches it back on: `npm run cli -- org password-sign-in --org <id> --on`.',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      body: UpdateSignInSettings,
      response: SignInSettings,
      errors: [409],
    },
    ({ ctx, body }) => setSignInSettings(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/sso/providers',
      summary: 'List the organisation’s sign-in providers',
      tags,
      permission: 'admin',
      query: ListProvidersQuery,
      response: SsoProviderList,
    },
    ({ ctx, query }) => listProviders(deps, ctx, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/sso/providers',
      summary: 'Add a sign-in provider (Google-type, Microsoft-type or OpenID Connect)',
      description:
        'The client secret is stored sealed and never answered again. The answer’s `redirectUri` is the address to register at the provider. A provider starts disabled unless `enabled` is true.',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      body: CreateSsoProvider,
      status: 201,
      response: SsoProvider,
    },
    ({ ctx, body }) => createProvider(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/sso/providers/{providerId}',
      summary: 'One sign-in provider (never its secret)',
      tags,
      permission: 'admin',
      params: Params,
      response: SsoProvider,
    },
    ({ ctx, params }) => getProvider(deps, ctx, params.providerId),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/sso/providers/{providerId}',
      summary:
        'Change a sign-in provider: name, tenant, issuer, client id, a new secret, enabled, domains, just-in-time users',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      params: Params,
      body: UpdateSsoProvider,
      response: SsoProvider,
      errors: [409],
    },
    ({ ctx, params, body }) => updateProvider(deps, ctx, params.providerId, body),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/sso/providers/{providerId}',
      summary: 'Remove a sign-in provider',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      params: Params,
      status: 204,
      errors: [409],
    },
    async ({ ctx, params }) => {
      await deleteProvider(deps, ctx, params.providerId);
      return undefined;
    },
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/sso/providers/{providerId}/sync',
      summary: 'Run the provider’s directory synchronisation now',
      description:
        'Queues a run at once (in place of the next scheduled one; runs then follow every DIRECTORY_SYNC_MINUTES). Its outcome shows as `lastSyncAt` and `lastSync` on the provider; its changes in the audit trail (`GET /api/v1/audit-events?targetType=user`). 409 when synchronisation is off.',
      tags,
      permission: 'admin',
      liveOnly: LIVE_ONLY,
      params: Params,
      optionalBody: true,
      status: 202,
      response: z.object({ success: z.literal(true), runAt: timestamp }).meta({ id: 'DirectorySyncQueued' }),
      errors: [409],
    },
    ({ ctx, params }) => requestSync(deps, ctx, params.providerId),
  );
}
