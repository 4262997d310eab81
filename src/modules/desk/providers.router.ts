import { AppError } from '../../platform/errors';
import type { Routes } from '../../platform/http/routes';
import { fieldPath } from '../../platform/http/validation';
import { idParam } from '../../platform/schemas';
import { z } from '../../platform/zod';
import { staffErrorPage } from '../../web/staff-layout';
import { type ProviderFormValues, providerPage, providersPage } from '../../web/staff-sso-pages';
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
import { type DeskDeps, staffUserOf } from './desk.service';

const tags = ['Staff pages: administration'];
const csrf = z.string().max(300);
const field = (max: number) => z.string().max(max).optional();
const ProviderForm = z.object({
  _csrf: csrf,
  type: field(20),
  name: field(1000),
  tenantId: field(1000),
  issuer: field(2000),
  clientId: field(2000),
  clientSecret: field(8000),
  enabled: field(10),
  allowedDomains: field(20_000),
  jitGroup: field(50),
  directorySync: field(10),
  directoryUrl: field(2000),
  groupMapping: field(20_000),
  syncNames: field(10),
});
type ProviderForm = z.infer<typeof ProviderForm>;
const Params = z.object({ providerId: idParam('providerId') });
const DoneQuery = z.object({ done: z.string().max(30).optional() });

const notices: Record<string, string> = {
  created: 'The provider was added.',
  saved: 'The changes were saved.',
  deleted: 'The provider was removed.',
  sync: 'Directory synchronisation will run in a moment: reload the page to see its outcome.',
  'password-on': 'Password sign-in is on: staff may sign in with their password again.',
  'password-off':
    'Password sign-in is off: staff sign in through your providers; administrators keep their password.',
};

const noticeOf = (done: string | undefined) =>
  done !== undefined && Object.hasOwn(notices, done) ? notices[done] : undefined;
const trimmed = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t : undefined;
};
const lines = (v: string | undefined) =>
  (v ?? '')
    .split(/[\r\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean);

/** `id = group` lines as a mapping (a line without `=` is kept whole, and refused by the schema). */
function mappingOf(text: string | undefined): Record<string, string> {
  const mapping: Record<string, string> = Object.create(null);
  for (const line of (text ?? '').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 0) mapping[line.trim()] = '';
    else mapping[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return mapping;
}

/** The form as the admin API's input: empty fields left out (kept, on a change). */
function inputOf(form: ProviderForm, withDirectory: boolean) {
  return {
    ...(withDirectory
      ? {
          directorySync: form.directorySync === 'on',
          directoryUrl: trimmed(form.directoryUrl) ?? null,
          groupMapping: mappingOf(form.groupMapping),
          syncNames: form.syncNames === 'on',
        }
      : {}),
    ...(trimmed(form.name) ? { name: trimmed(form.name) } : {}),
    ...(trimmed(form.tenantId) ? { tenantId: trimmed(form.tenantId) } : {}),
    ...(trimmed(form.issuer) ? { issuer: trimmed(form.issuer) } : {}),
    ...(trimmed(form.clientId) ? { clientId: trimmed(form.clientId) } : {}),
    ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
    enabled: form.enabled === 'on',
    allowedDomains: lines(form.allowedDomains),
    jitGroup: trimmed(form.jitGroup) ?? null,
  };
}

/** What to show in the form again after a refusal: everything but the secret. */
const valuesOf = (form: ProviderForm): ProviderFormValues => ({
  type: form.type,
  name: form.name,
  tenantId: form.tenantId,
  issuer: form.issuer,
  clientId: form.clientId,
  enabled: form.enabled === 'on',
  allowedDomains: form.allowedDomains,
  jitGroup: form.jitGroup,
  directorySync: form.directorySync === 'on',
  directoryUrl: form.directoryUrl,
  groupMapping: form.groupMapping,
  syncNames: form.syncNames === 'on',
});

const problemsOf = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${fieldPath(i.path as (string | number)[]) || 'form'}: ${i.message}`);

/** A service refusal shown on the page (400 with the fields named). */
function refusal(err: unknown): { status: number; problems: string[] } {
  if (err instanceof AppError && err.status < 500 && err.status !== 404) {
    return {
      status: err.status,
      problems: err.details?.length ? err.details.map((d) => `${d.field}: ${d.message}`) : [err.message],
    };
  }
  throw err;
}

/** Integrations → OAuth Providers (spec 5.3): administrators set up staff single sign-on. */
export function providerPageRoutes(routes: Routes, deps: DeskDeps & ProviderDeps & AuditDeps): void {
  const common = {
    tags,
    audience: 'staff' as const,
    errorPage: staffErrorPage,
    permission: 'admin' as const,
  };
  const frame = async (ctx: Parameters<typeof staffUserOf>[1], token: string) => ({
    me: await staffUserOf(deps, ctx),
    csrf: token,
  });

  const showList = async (
    ctx: Parameters<typeof staffUserOf>[1],
    token: string,
    extra: { status?: number; notice?: string; problems?: string[]; form?: ProviderFormValues } = {},
  ) => {
    const { providers } = await listProviders(deps, ctx);
    const { passwordSignIn } = await getSignInSettings(deps, ctx);
    const { status, ...rest } = extra;
    return {
      status: status ?? 200,
      html: providersPage(await frame(ctx, token), {
        providers,
        redirectUri: callbackUrl(deps.baseUrl),
        signInAddress: `${deps.baseUrl}/signin/org/${ctx.organisationId}`,
        passwordSignIn,
        ...rest,
      }),
    };
  };

  const showOne = async (
    ctx: Parameters<typeof staffUserOf>[1],
    token: string,
    providerId: string,
    extra: { status?: number; notice?: string; problems?: string[]; form?: ProviderFormValues } = {},
  ) => {
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
      html: providerPage(await frame(ctx, token), {
        provider,
        history: events,
        synced,
        names: new Map(users.map((u) => [u._id, u.name])),
        ...rest,
      }),
    };
  };

  routes.staffPage(
    {
      ...common,
      path: '/staff/integrations/providers',
      summary: 'Integrations → OAuth Providers: the sign-in providers and the redirect address to register',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, csrf: token, query }) => showList(ctx, token(), { notice: noticeOf(query.done) }),
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/providers/password-sign-in',
      summary: 'Switch password sign-in on or off (form post)',
      description: 'Fields: `_csrf`, `passwordSignIn` (on|off). Off needs an enabled provider.',
      form: z.object({ _csrf: csrf, passwordSignIn: z.enum(['on', 'off']) }),
      statuses: { 303: 'Switched', 400: 'Not on or off', 409: 'No enabled provider: refused' },
    },
    async ({ ctx, form, csrf: token }) => {
      try {
        await setSignInSettings(deps, ctx, { passwordSignIn: form.passwordSignIn === 'on' });
        return { redirect: `/staff/integrations/providers?done=password-${form.passwordSignIn}#password` };
      } catch (err) {
        return showList(ctx, token(), refusal(err));
      }
    },
  );

  routes.staffPage(
    {
      ...common,
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
        return showList(ctx, token(), {
          status: 400,
          problems: problemsOf(parsed.error.issues),
          form: valuesOf(form),
        });
      }
      try {
        const made = await createProvider(deps, ctx, parsed.data);
        return { redirect: `/staff/integrations/providers/${made._id}?done=created` };
      } catch (err) {
        return showList(ctx, token(), { ...refusal(err), form: valuesOf(form) });
      }
    },
  );

  routes.staffPage(
    {
      ...common,
      path: '/staff/integrations/providers/{providerId}',
      summary: 'A sign-in provider: its settings, the redirect address and its history',
      params: Params,
      query: DoneQuery,
      statuses: { 200: 'The page', 404: 'Unknown provider' },
    },
    async ({ ctx, params, csrf: token, query }) =>
      showOne(ctx, token(), params.providerId, { notice: noticeOf(query.done) }),
  );

  routes.staffPage(
    {
      ...common,
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
        return showOne(ctx, token(), params.providerId, {
          status: 400,
          problems: problemsOf(parsed.error.issues),
          form: valuesOf(form),
        });
      }
      try {
        await updateProvider(deps, ctx, params.providerId, parsed.data);
        return { redirect: `/staff/integrations/providers/${params.providerId}?done=saved` };
      } catch (err) {
        return showOne(ctx, token(), params.providerId, { ...refusal(err), form: valuesOf(form) });
      }
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/providers/{providerId}/sync',
      summary: 'Run directory synchronisation now (form post)',
      params: Params,
      form: z.object({ _csrf: csrf }),
      statuses: { 303: 'Queued', 404: 'Unknown provider', 409: 'Synchronisation is off' },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        await requestSync(deps, ctx, params.providerId);
        return { redirect: `/staff/integrations/providers/${params.providerId}?done=sync#directory` };
      } catch (err) {
        return showOne(ctx, token(), params.providerId, refusal(err));
      }
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/providers/{providerId}/delete',
      summary: 'Remove a sign-in provider (form post)',
      params: Params,
      form: z.object({ _csrf: csrf }),
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
        return showOne(ctx, token(), params.providerId, refusal(err));
      }
      return { redirect: '/staff/integrations/providers?done=deleted' };
    },
  );
}
