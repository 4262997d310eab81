import { AppError } from '../../platform/errors';
import type { Routes } from '../../platform/http/routes';
import { fieldPath } from '../../platform/http/validation';
import { groups as allGroups, type Group } from '../../platform/permissions';
import { idParam } from '../../platform/schemas';
import { z } from '../../platform/zod';
import {
  type AdminFrame,
  clientPage,
  type IntegrationsView,
  integrationsPage,
  userPage,
  usersPage,
} from '../../web/staff-admin-pages';
import { staffErrorPage } from '../../web/staff-layout';
import { type AccountsDeps, sendPasswordLink } from '../accounts';
import {
  CreateOAuthClientInput,
  createClient,
  getClient,
  listClients,
  listClientTokens,
  revokeClientTokens,
  rotateSecret,
  setClientDisabled,
} from '../oauth';
import {
  createApiKey,
  createUser,
  endUserSessions,
  getUser,
  listApiKeys,
  listUsers,
  revokeApiKey,
  setUserStatus,
  updateUser,
} from '../organisations';
import { type DeskDeps, staffUserOf } from './desk.service';

const tags = ['Staff pages: administration'];
const UserParams = z.object({ userId: idParam('userId') });
const KeyParams = z.object({ userId: idParam('userId'), keyId: idParam('keyId') });
const csrf = z.string().max(300);
/** A checkbox list arrives as one value or several. */
const groupField = z
  .union([z.string().max(50), z.array(z.string().max(50)).max(10)])
  .optional()
  .transform((g) => (g === undefined ? [] : Array.isArray(g) ? g : [g]));

const clientNotices: Record<string, string> = {
  disabled: 'The client is disabled: it gets no tokens.',
  enabled: 'The client is enabled again.',
};

const done: Record<string, string> = {
  created: 'The user was added.',
  invited: 'The user was added and e-mailed a link to choose their password.',
  'no-link': 'The user was added, but the password link could not be made: use “E-mail a password link”.',
  groups: 'The groups were saved.',
  active: 'The user is active again.',
  deactivated:
    'The user is deactivated and signed out of every browser: their sessions and keys stop working at once.',
  link: 'A link to choose a password is on its way.',
  'signed-out': 'The user is signed out of every browser: each goes to the sign-in page on its next click.',
  revoked: 'The key was revoked: it stops working at once.',
};

/** Administrators' pages: users, their groups, activation, password links and API keys (spec 5.1.2). */
export function userPageRoutes(routes: Routes, deps: DeskDeps & AccountsDeps): void {
  const common = {
    tags,
    audience: 'staff' as const,
    errorPage: staffErrorPage,
    permission: 'admin' as const,
  };
  const DoneQuery = z.object({ done: z.string().max(30).optional() });

  const frame = async (ctx: Parameters<typeof staffUserOf>[1], token: string): Promise<AdminFrame> => ({
    me: await staffUserOf(deps, ctx),
    csrf: token,
  });
  /** A service refusal (409 last administrator, 400 bad name) shown on the page instead of an error page. */
  const refusal = (err: unknown): { status: number; message: string } => {
    if (err instanceof AppError && err.status < 500 && err.status !== 404) {
      const detail = err.details?.map((d) => `${d.field} ${d.message}`).join('; ');
      return { status: err.status, message: detail ? `${err.message}: ${detail}` : err.message };
    }
    throw err;
  };
  const groupsOf = (given: string[]): Group[] =>
    given.filter((g): g is Group => (allGroups as readonly string[]).includes(g));

  routes.staffPage(
    {
      ...common,
      path: '/staff/users',
      summary: 'Users of the organisation (administrators)',
      query: DoneQuery,
      statuses: {
        200: 'The list and the form to add one',
        303: 'Not signed in',
        403: 'Not an administrator',
      },
    },
    async ({ ctx, csrf: token, query }) => {
      const { users } = await listUsers(deps, ctx);
      return {
        status: 200,
        html: usersPage(await frame(ctx, token()), users, { notice: done[query.done ?? ''] }),
      };
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/users',
      summary: 'Add a user (form post)',
      description:
        'Fields: `_csrf`, `name`, `email`, `kind` (staff|service), `groups` (repeated), `invite` (`yes`: e-mail a staff user a password link).',
      form: z.object({
        _csrf: csrf,
        name: z.string().max(1000),
        email: z.string().max(1000),
        kind: z.enum(['staff', 'service']).default('staff'),
        groups: groupField,
        invite: z.literal('yes').optional(),
      }),
      statuses: {
        303: 'Added: to the user’s page',
        400: 'Refused (named why), the list again',
        409: 'The e-mail is taken',
      },
    },
    async ({ ctx, form, csrf: token }) => {
      try {
        const name = form.name.trim();
        const email = form.email.trim();
        if (!name) throw new AppError(400, 'Give the user’s name');
        if (!z.email().safeParse(email).success)
          throw new AppError(400, 'Give an e-mail address, like name@example.com');
        const picked = groupsOf(form.groups);
        if (picked.length === 0) throw new AppError(400, 'Choose at least one group');
        const user = await createUser(deps, ctx, { name, email, kind: form.kind, groups: picked });
        if (form.invite !== 'yes' || user.kind !== 'staff')
          return { redirect: `/staff/users/${user._id}?done=created` };
        // The user exists now, whatever happens to the link: a failure is said on their page.
        const invited = await sendPasswordLink(deps, ctx, user._id).then(
          () => true,
          () => false,
        );
        return { redirect: `/staff/users/${user._id}?done=${invited ? 'invited' : 'no-link'}` };
      } catch (err) {
        const { status, message } = refusal(err);
        const { users } = await listUsers(deps, ctx);
        return { status, html: usersPage(await frame(ctx, token()), users, { error: message }) };
      }
    },
  );

  const showUser = async (
    ctx: Parameters<typeof staffUserOf>[1],
    token: string,
    userId: string,
    extra: { status?: number; notice?: string; error?: string; created?: { name: string; key: string } } = {},
  ) => {
    const user = await getUser(deps, ctx, userId);
    const { apiKeys } = await listApiKeys(deps, ctx, { userId, includeRevoked: true });
    return {
      status: extra.status ?? 200,
      html: userPage(await frame(ctx, token), { user, keys: apiKeys, ...extra }),
    };
  };

  routes.staffPage(
    {
      ...common,
      path: '/staff/users/{userId}',
      summary: 'A user: groups, activation, password link and API keys (administrators)',
      params: UserParams,
      query: DoneQuery,
      statuses: {
        200: 'The user’s page',
        303: 'Not signed in',
        403: 'Not an administrator',
        404: 'Unknown user',
      },
    },
    async ({ ctx, params, query, csrf: token }) =>
      showUser(ctx, token(), params.userId, { notice: done[query.done ?? ''] }),
  );

  /** A form post on a user's page: the change, then back to the page (or the page with the refusal). */
  const action = <F extends z.ZodType>(
    path: string,
    summary: string,
    form: F,
    run: (ctx: Parameters<typeof staffUserOf>[1], userId: string, form: z.output<F>) => Promise<string>,
  ) =>
    routes.staffPage(
      {
        ...common,
        method: 'post',
        path: `/staff/users/{userId}/${path}`,
        summary,
        params: UserParams,
        form,
        statuses: { 303: 'Done: back to the user’s page', 404: 'Unknown user', 409: 'Refused (named why)' },
      },
      async ({ ctx, params, form: input, csrf: token }) => {
        try {
          const notice = await run(ctx, params.userId, input);
          return {
            redirect: `/staff/users/${params.userId}?done=${notice}#${path === 'groups' ? 'groups' : 'keys'}`,
          };
        } catch (err) {
          const { status, message } = refusal(err);
          return showUser(ctx, token(), params.userId, { status, error: message });
        }
      },
    );

  action(
    'groups',
    'Save a user’s groups (form post)',
    z.object({ _csrf: csrf, groups: groupField }),
    async (ctx, id, f) => {
      const picked = groupsOf(f.groups);
      if (picked.length === 0) throw new AppError(400, 'Choose at least one group');
      await updateUser(deps, ctx, id, { groups: picked });
      return 'groups';
    },
  );
  action(
    'status',
    'Deactivate or reactivate a user (form post)',
    z.object({ _csrf: csrf, status: z.enum(['active', 'deactivated']) }),
    async (ctx, id, f) => {
      await setUserStatus(deps, ctx, id, f.status);
      return f.status;
    },
  );
  action(
    'sign-out',
    'Sign a user out of every browser (form post)',
    z.object({ _csrf: csrf }),
    async (ctx, id) => {
      await endUserSessions(deps, ctx, id);
      return 'signed-out';
    },
  );
  action(
    'password-link',
    'E-mail a user a password link (form post)',
    z.object({ _csrf: csrf }),
    async (ctx, id) => {
      await sendPasswordLink(deps, ctx, id);
      return 'link';
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/users/{userId}/apikeys',
      summary: 'Create an API key (form post): the page shows it once',
      description:
        'Fields: `_csrf`, `name`. Answers the user’s page with the new key (201), the only time it is shown; the page is not cached.',
      params: UserParams,
      form: z.object({ _csrf: csrf, name: z.string().max(1000) }),
      statuses: { 201: 'The key, shown once', 400: 'No name', 404: 'Unknown user' },
    },
    async ({ ctx, params, form, csrf: token }) => {
      const name = form.name.trim();
      if (!name || name.length > 200) {
        return showUser(ctx, token(), params.userId, {
          status: 400,
          error: 'Give the key a name of at most 200 characters',
        });
      }
      const key = await createApiKey(deps, ctx, params.userId, name);
      return showUser(ctx, token(), params.userId, {
        status: 201,
        created: { name: key.name, key: key.apiKey },
      });
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/users/{userId}/apikeys/{keyId}/revoke',
      summary: 'Revoke an API key (form post)',
      params: KeyParams,
      form: z.object({ _csrf: csrf }),
      statuses: { 303: 'Revoked', 404: 'Unknown key', 409: 'Already revoked' },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        await revokeApiKey(deps, ctx, params.userId, params.keyId);
        return { redirect: `/staff/users/${params.userId}?done=revoked#keys` };
      } catch (err) {
        const { status, message } = refusal(err);
        return showUser(ctx, token(), params.userId, { status, error: message });
      }
    },
  );

  const showIntegrations = async (
    ctx: Parameters<typeof staffUserOf>[1],
    token: string,
    extra: { status?: number } & Omit<IntegrationsView, 'clients'> = {},
  ) => {
    const { clients } = await listClients(deps, ctx);
    const { status, ...rest } = extra;
    return { status: status ?? 200, html: integrationsPage(await frame(ctx, token), { clients, ...rest }) };
  };

  routes.staffPage(
    {
      ...common,
      path: '/staff/integrations',
      summary: 'Integrations: OAuth client applications (and, to come, sign-in providers)',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, csrf: token, query }) =>
      showIntegrations(ctx, token(), { notice: clientNotices[query.done ?? ''] }),
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/clients',
      summary: 'Register an OAuth client (form post): the page shows its secret once',
      description:
        'Fields: `_csrf`, `name`, `type` (confidential|public), `grants` and `scopes` (repeated), `redirectUris` (one per line).',
      form: z.object({
        _csrf: csrf,
        name: z.string().max(1000),
        type: z.string().max(20).optional(),
        grants: groupField,
        scopes: groupField,
        redirectUris: z.string().max(25_000).optional(),
      }),
      statuses: { 201: 'Registered: the secret, shown once', 400: 'Refused (each problem named)' },
    },
    async ({ ctx, form, csrf: token }) => {
      const parsed = CreateOAuthClientInput.safeParse({
        name: form.name,
        type: form.type || 'confidential',
        grants: form.grants,
        scopes: form.scopes,
        redirectUris: (form.redirectUris ?? '')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      });
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${fieldPath(i.path) || 'form'}: ${i.message}`);
        return showIntegrations(ctx, token(), { status: 400, problems });
      }
      try {
        const made = await createClient(deps, ctx, parsed.data);
        return showIntegrations(ctx, token(), {
          status: 201,
          notice: 'The client was registered.',
          secret: made.clientSecret
            ? { name: made.name, clientId: made.clientId, clientSecret: made.clientSecret }
            : undefined,
        });
      } catch (err) {
        const { status, message } = refusal(err);
        return showIntegrations(ctx, token(), { status, problems: [message] });
      }
    },
  );

  const ClientParams = z.object({ clientId: idParam('clientId') });
  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/rotate',
      summary: 'Give a client a new secret (form post): shown once, the old one stops working',
      params: ClientParams,
      form: z.object({ _csrf: csrf }),
      statuses: {
        200: 'The new secret, shown once',
        404: 'Unknown client',
        409: 'A public client has no secret',
      },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        const client = (await listClients(deps, ctx)).clients.find((c) => c._id === params.clientId);
        const rotated = await rotateSecret(deps, ctx, params.clientId);
        return showIntegrations(ctx, token(), {
          notice: 'The client has a new secret; the old one no longer works.',
          secret: {
            name: client?.name ?? '',
            clientId: rotated.clientId,
            clientSecret: rotated.clientSecret,
          },
        });
      } catch (err) {
        const { status, message } = refusal(err);
        return showIntegrations(ctx, token(), { status, problems: [message] });
      }
    },
  );
  const tokenNotices: Record<string, string> = {
    revoked: 'The token was revoked (a refresh token with everything its consent issued).',
    'revoked-all': 'All the client’s tokens were revoked.',
  };
  routes.staffPage(
    {
      ...common,
      path: '/staff/integrations/clients/{clientId}',
      summary:
        'An OAuth client: what it may do and its live tokens, each with whom it acts for and its last use',
      params: ClientParams,
      query: DoneQuery,
      statuses: { 200: 'The client’s page', 404: 'Unknown client' },
    },
    async ({ ctx, params, query, csrf: token }) => {
      const client = await getClient(deps, ctx, params.clientId);
      const { tokens, total } = await listClientTokens(deps, ctx, params.clientId);
      return {
        status: 200,
        html: clientPage(await frame(ctx, token()), {
          client,
          tokens,
          total,
          notice: tokenNotices[query.done ?? ''],
        }),
      };
    },
  );
  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/tokens/{tokenId}/revoke',
      summary: 'Revoke one of a client’s tokens (form post)',
      params: ClientParams.extend({ tokenId: idParam('tokenId') }),
      form: z.object({ _csrf: csrf }),
      statuses: { 303: 'Revoked: back to the client’s page', 404: 'Unknown client, or no such live token' },
    },
    async ({ ctx, params }) => {
      await revokeClientTokens(deps, ctx, params.clientId, params.tokenId);
      return { redirect: `/staff/integrations/clients/${params.clientId}?done=revoked#tokens` };
    },
  );
  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/revoke-tokens',
      summary: 'Revoke every live token of a client (form post)',
      params: ClientParams,
      form: z.object({ _csrf: csrf }),
      statuses: { 303: 'Revoked: back to the client’s page', 404: 'Unknown client' },
    },
    async ({ ctx, params }) => {
      await revokeClientTokens(deps, ctx, params.clientId);
      return { redirect: `/staff/integrations/clients/${params.clientId}?done=revoked-all#tokens` };
    },
  );
  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    routes.staffPage(
      {
        ...common,
        method: 'post',
        path: `/staff/integrations/clients/{clientId}/${action}`,
        summary: disabled ? 'Disable an OAuth client (form post)' : 'Enable an OAuth client (form post)',
        params: ClientParams,
        form: z.object({ _csrf: csrf }),
        statuses: { 303: 'Done', 404: 'Unknown client', 409: 'Already so' },
      },
      async ({ ctx, params, csrf: token }) => {
        try {
          await setClientDisabled(deps, ctx, params.clientId, disabled);
          return { redirect: `/staff/integrations?done=${action}d#clients` };
        } catch (err) {
          const { status, message } = refusal(err);
          return showIntegrations(ctx, token(), { status, problems: [message] });
        }
      },
    );
  }
}
