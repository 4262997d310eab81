import type { ClientNotice } from '../../i18n/desk-integrations';
import type { Routes } from '../../platform/http/routes';
import { fieldPath } from '../../platform/http/validation';
import type { RequestContext } from '../../platform/kernel/context';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
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
import { listWebhooks, type WebhookDeps } from '../webhooks';
import { adminPage, checkboxList, csrfInput, DoneQuery, refusalMessage } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import { clientPage, type IntegrationsView, integrationsPage } from './pages/integrations.pages';

type Deps = DeskDeps & WebhookDeps;

const clientNotices: readonly ClientNotice[] = ['disabled', 'enabled'];
const tokenNotices: readonly ClientNotice[] = ['revoked', 'revoked-all'];

const ClientParams = z.object({ clientId: idParam('clientId') });

/**
 * The Integrations pages (administrators). OAuth clients: register a client, give it a new secret, see and
 * revoke its tokens, disable and enable it. Webhooks: webhooks.router.ts.
 */
export function oauthClientPageRoutes(routes: Routes, deps: Deps): void {
  integrationsPageRoutes(routes, deps);
  clientTokenRoutes(routes, deps);
  clientSwitchRoutes(routes, deps);
}

/** The Integrations page: clients and webhooks, with a notice, a refusal's problems or a secret shown once. */
export async function showIntegrations(
  deps: Deps,
  ctx: RequestContext,
  token: string,
  extra: { status?: number } & Omit<IntegrationsView, 'clients' | 'webhooks'> = {},
) {
  const { clients } = await listClients(deps, ctx);
  const { webhooks } = await listWebhooks(deps, ctx, { limit: 100 });
  const { status, ...rest } = extra;
  return {
    status: status ?? 200,
    html: integrationsPage(await deskFrame(deps, ctx, token), { clients, webhooks, ...rest }),
  };
}

/** The Integrations page and the posts that answer with it: register a client, rotate its secret. */
function integrationsPageRoutes(routes: Routes, deps: Deps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/integrations',
      summary: 'Integrations: OAuth client applications, webhooks, the way to the sign-in providers',
      query: DoneQuery,
      statuses: { 200: 'The page', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, csrf: token, query }) =>
      showIntegrations(deps, ctx, token(), {
        notice: clientNotices.find((n) => n === query.done),
        webhookNotice: query.done === 'webhook-deleted' ? 'deleted' : undefined,
      }),
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/clients',
      summary: 'Register an OAuth client (form post): the page shows its secret once',
      description:
        'Fields: `_csrf`, `name`, `type` (confidential|public), `grants` and `scopes` (repeated), `redirectUris` (one per line).',
      form: z.object({
        _csrf: csrfInput,
        name: z.string().max(1000),
        type: z.string().max(20).optional(),
        grants: checkboxList,
        scopes: checkboxList,
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
        return showIntegrations(deps, ctx, token(), { status: 400, problems });
      }
      try {
        const made = await createClient(deps, ctx, parsed.data);
        return showIntegrations(deps, ctx, token(), {
          status: 201,
          notice: 'registered',
          secret: made.clientSecret
            ? { name: made.name, clientId: made.clientId, clientSecret: made.clientSecret }
            : undefined,
        });
      } catch (err) {
        const { status, message } = refusalMessage(err);
        return showIntegrations(deps, ctx, token(), { status, problems: [message] });
      }
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/rotate',
      summary: 'Give a client a new secret (form post): shown once, the old one stops working',
      params: ClientParams,
      form: z.object({ _csrf: csrfInput }),
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
        return showIntegrations(deps, ctx, token(), {
          notice: 'rotated',
          secret: {
            name: client?.name ?? '',
            clientId: rotated.clientId,
            clientSecret: rotated.clientSecret,
          },
        });
      } catch (err) {
        const { status, message } = refusalMessage(err);
        return showIntegrations(deps, ctx, token(), { status, problems: [message] });
      }
    },
  );
}

/** A client's page with its live tokens, and the posts that revoke one token or all of them. */
function clientTokenRoutes(routes: Routes, deps: Deps): void {
  routes.staffPage(
    {
      ...adminPage,
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
        html: clientPage(await deskFrame(deps, ctx, token()), {
          client,
          tokens,
          total,
          notice: tokenNotices.find((n) => n === query.done),
        }),
      };
    },
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/tokens/{tokenId}/revoke',
      summary: 'Revoke one of a client’s tokens (form post)',
      params: ClientParams.extend({ tokenId: idParam('tokenId') }),
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Revoked: back to the client’s page', 404: 'Unknown client, or no such live token' },
    },
    async ({ ctx, params }) => {
      await revokeClientTokens(deps, ctx, params.clientId, params.tokenId);
      return { redirect: `/staff/integrations/clients/${params.clientId}?done=revoked#tokens` };
    },
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/clients/{clientId}/revoke-tokens',
      summary: 'Revoke every live token of a client (form post)',
      params: ClientParams,
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Revoked: back to the client’s page', 404: 'Unknown client' },
    },
    async ({ ctx, params }) => {
      await revokeClientTokens(deps, ctx, params.clientId);
      return { redirect: `/staff/integrations/clients/${params.clientId}?done=revoked-all#tokens` };
    },
  );
}

/** Disable a client (it gets no tokens) or enable it again: back to the Integrations page. */
function clientSwitchRoutes(routes: Routes, deps: Deps): void {
  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    routes.staffPage(
      {
        ...adminPage,
        method: 'post',
        path: `/staff/integrations/clients/{clientId}/${action}`,
        summary: disabled ? 'Disable an OAuth client (form post)' : 'Enable an OAuth client (form post)',
        params: ClientParams,
        form: z.object({ _csrf: csrfInput }),
        statuses: { 303: 'Done', 404: 'Unknown client', 409: 'Already so' },
      },
      async ({ ctx, params, csrf: token }) => {
        try {
          await setClientDisabled(deps, ctx, params.clientId, disabled);
          return { redirect: `/staff/integrations?done=${action}d#clients` };
        } catch (err) {
          const { status, message } = refusalMessage(err);
          return showIntegrations(deps, ctx, token(), { status, problems: [message] });
        }
      },
    );
  }
}
