import type { ProviderNotice } from '../../i18n/desk-providers';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { type AuditDeps, listAuditEvents } from '../audit';
import { listUsers } from '../organisations';
import {
  CreateSsoProvider,
  callbackUrl,
  createProvider,
  deleteProvider,
  getProvider,
  getSignInSettings,
  listProviders,
  type ProviderDeps,
  requestSync,
  setSignInSettings,
  UpdateSsoProvider,
  updateProvider,
} from '../sso';
import { adminPage, csrfInput, DoneQuery } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import { type ProviderPageExtra, providerPage, providersPage } from './pages/providers.pages';
import { inputOf, ProviderForm, problemsOf, refusalProblems, valuesOf } from './providers.form';

type ProviderPageDeps = DeskDeps & ProviderDeps & AuditDeps;
/** What a provider page shows besides the provider(s), and its status: a notice or a refusal's problems. */
type Extra = ProviderPageExtra & { status?: number };

const Params = z.object({ providerId: idParam('providerId') });

const notices: readonly ProviderNotice[] = [
  'created',
  'saved',
  'deleted',
  'sync',
  'password-on',
  'password-off',
];
const noticeOf = (done: string | undefined) => notices.find((n) => n === done);

/** Integrations → OAuth Providers (spec 5.3): administrators set up staff single sign-on. */
export function providerPageRoutes(routes: Routes, deps: ProviderPageDeps): void {
  providerListRoutes(routes, deps);
  providerRoutes(routes, deps);
}

/** The providers' page: the list, the redirect address to register, password sign-in, the add form. */
async function showList(deps: ProviderPageDeps, ctx: RequestContext, token: string, extra: Extra = {}) {
  const { providers } = await listProviders(deps, ctx);
  const { passwordSignIn } = await getSignInSettings(deps, ctx);
  const { status, ...rest } = extra;
  return {
    status: status ?? 200,
    html: providersPage(await deskFrame(deps, ctx, token), {
      providers,
      redirectUri: callbackUrl(deps.baseUrl),
      signInAddress: `${deps.baseUrl}/signin/org/${ctx.organisationId}`,
      passwordSignIn,
      ...rest,
    }),
  };
}

/** A provider's page: its settings, its history and (Microsoft) the users directory sync changed. */
async function showOne(
  deps: ProviderPageDeps,
  ctx: RequestContext,
  token: string,
  providerId: string,
  extra: Extra = {},
) {
  const provider = await getProvider(deps, ctx, providerId);
  const { events } = await listAuditEvents(deps, ctx, {
    targetType: 'sso_provider',
    targetId: providerId,
    limit: 50,
  });
  const synced =
    provider.type === 'microsoft'
      ? (
          await listAuditEvents(deps, ctx, { targetType: 'user', actorLabel: 'directory sync', limit: 100 })
        ).events
          .filter((e) => e.summary.providerId === providerId)
          .slice(0, 20)
      : [];
  const { users } = await listUsers(deps, ctx);
  const { status, ...rest } = extra;
  return {
    status: status ?? 200,
    html: providerPage(await deskFrame(deps, ctx, token), {
      provider,
      history: events,
      synced,
      names: new Map(users.map((u) => [u._id, u.name])),
      ...rest,
    }),
  };
}

/** The providers' page and its posts: switch password sign-in, add a provider. */
function providerListRoutes(routes: Routes, deps: ProviderPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/integrations/providers',
      summary: 'Integrations → OAuth Providers: the sign-in providers and the redirect address to register',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, csrf: token, query }) => showList(deps, ctx, token(), { notice: noticeOf(query.done) }),
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/providers/password-sign-in',
      summary: 'Switch password sign-in on or off (form post)',
      description: 'Fields: `_csrf`, `passwordSignIn` (on|off). Off needs an enabled provider.',
      form: z.object({ _csrf: csrfInput, passwordSignIn: z.enum(['on', 'off']) }),
      statuses: { 303: 'Switched', 400: 'Not on or off', 409: 'No enabled provider: refused' },
    },
    async ({ ctx, form, csrf: token }) => {
      try {
        await setSignInSettings(deps, ctx, { passwordSignIn: form.passwordSignIn === 'on' });
        return { redirect: `/staff/integrations/providers?done=password-${form.passwordSignIn}#password` };
      } catch (err) {
        return showList(deps, ctx, token(), refusalProblems(err, 'noEnabledProvider'));
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/providers',
      summary: 'Add a sign-in provider (form post)',
      description:
        'Fields: `_csrf`, `type` (google|microsoft|oidc), `name`, `tenantId`, `issuer`, `clientId`, `clientSecret`, `enabled` (on), `allowedDomains` (one per line), `jitGroup` (empty: off). Refused → the form again with each problem named (never the secret).',
      form: ProviderForm,
      statuses: { 303: 'Added: to its page', 400: 'Refused (each problem named)' },
    },
    async ({ ctx, form, csrf: token }) => {
      const { directoryUrl: _url, ...created } = inputOf(form, false);
      const parsed = CreateSsoProvider.safeParse({ type: form.type ?? '', ...created });
      if (!parsed.success) {
        return showList(deps, ctx, token(), {
          status: 400,
          problems: problemsOf(parsed.error.issues, form, form.type === 'microsoft'),
          form: valuesOf(form),
        });
      }
      try {
        const made = await createProvider(deps, ctx, parsed.data);
        return { redirect: `/staff/integrations/providers/${made._id}?done=created` };
      } catch (err) {
        return showList(deps, ctx, token(), { ...refusalProblems(err), form: valuesOf(form) });
      }
    },
  );
}

/** A provider's page and its posts: change it, run directory synchronisation, remove it. */
function providerRoutes(routes: Routes, deps: ProviderPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/integrations/providers/{providerId}',
      summary: 'A sign-in provider: its settings, the redirect address and its history',
      params: Params,
      query: DoneQuery,
      statuses: { 200: 'The page', 404: 'Unknown provider' },
    },
    async ({ ctx, params, csrf: token, query }) =>
      showOne(deps, ctx, token(), params.providerId, { notice: noticeOf(query.done) }),
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/providers/{providerId}',
      summary: 'Change a sign-in provider (form post)',
      description:
        'The fields of the add form but `type`; an empty client secret keeps the saved one; `enabled` absent switches it off.',
      params: Params,
      form: ProviderForm,
      statuses: {
        303: 'Saved',
        400: 'Refused (each problem named)',
        404: 'Unknown provider',
        409: 'The last enabled provider while password sign-in is off',
      },
    },
    async ({ ctx, params, form, csrf: token }) => {
      const current = await getProvider(deps, ctx, params.providerId);
      const parsed = UpdateSsoProvider.safeParse(inputOf(form, current.type === 'microsoft'));
      if (!parsed.success) {
        return showOne(deps, ctx, token(), params.providerId, {
          status: 400,
          problems: problemsOf(parsed.error.issues, form, current.type === 'microsoft'),
          form: valuesOf(form),
        });
      }
      try {
        await updateProvider(deps, ctx, params.providerId, parsed.data);
        return { redirect: `/staff/integrations/providers/${params.providerId}?done=saved` };
      } catch (err) {
        return showOne(deps, ctx, token(), params.providerId, {
          ...refusalProblems(err, 'lastProvider'),
          form: valuesOf(form),
        });
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/providers/{providerId}/sync',
      summary: 'Run directory synchronisation now (form post)',
      params: Params,
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Queued', 404: 'Unknown provider', 409: 'Synchronisation is off' },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        await requestSync(deps, ctx, params.providerId);
        return { redirect: `/staff/integrations/providers/${params.providerId}?done=sync#directory` };
      } catch (err) {
        return showOne(deps, ctx, token(), params.providerId, refusalProblems(err, 'syncOff'));
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/providers/{providerId}/delete',
      summary: 'Remove a sign-in provider (form post)',
      params: Params,
      form: z.object({ _csrf: csrfInput }),
      statuses: {
        303: 'Removed',
        404: 'Unknown provider',
        409: 'The last enabled provider while password sign-in is off',
      },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        await deleteProvider(deps, ctx, params.providerId);
      } catch (err) {
        return showOne(deps, ctx, token(), params.providerId, refusalProblems(err, 'lastProvider'));
      }
      return { redirect: '/staff/integrations/providers?done=deleted' };
    },
  );
}
