import type { WebhookNotice } from '../../i18n/desk-webhooks';
import type { PageResult } from '../../platform/http/route-spec';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  type CreateWebhook,
  createWebhook,
  deleteWebhook,
  getWebhook,
  ListDeliveriesQuery,
  listDeliveries,
  redeliver,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookDeps,
  webhookBodiesFor,
} from '../webhooks';
import { adminPage, csrfInput, refusalMessage } from './admin-pages';
import { showIntegrations } from './clients.router';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import {
  type WebhookFormValues,
  type WebhookPageView,
  type WebhookProblem,
  webhookPage,
} from './pages/webhooks.pages';

type Deps = DeskDeps & WebhookDeps;

const WebhookParams = z.object({ webhookId: idParam('webhookId') });
const PAGE_SIZE = 20;
const notices: readonly WebhookNotice[] = [
  'created',
  'saved',
  'rotated',
  'enabled',
  'disabled',
  'redelivered',
];

/** The add and change forms: address, description, the events ticked (`*` for every one). */
const WebhookForm = z.object({
  _csrf: csrfInput,
  url: z.string().max(2000).optional(),
  description: z.string().max(500).optional(),
  events: z
    .union([z.string().max(100), z.array(z.string().max(100)).max(50)])
    .optional()
    .transform((e) => (e === undefined ? [] : Array.isArray(e) ? e : [e])),
});
type WebhookForm = z.infer<typeof WebhookForm>;

const valuesOf = (form: WebhookForm): WebhookFormValues => ({
  url: (form.url ?? '').trim(),
  description: (form.description ?? '').trim(),
  events: form.events.includes('*') ? ['*'] : form.events,
});

/** The form's problems, said in the page's words (the address's refusal says why), or the body to send. */
function checked(
  deps: Deps,
  v: WebhookFormValues,
): { problems: WebhookProblem[]; body?: undefined } | { body: CreateWebhook } {
  const problems: WebhookProblem[] = [];
  if (!v.url) problems.push((w) => w.noAddress);
  if (!v.events.length) problems.push((w) => w.noEvents);
  if (problems.length) return { problems };
  const parsed = webhookBodiesFor(deps.policy.allowHttp).create.safeParse({
    url: v.url,
    events: v.events,
    description: v.description || null,
  });
  if (parsed.success) return { body: parsed.data };
  return {
    problems: parsed.error.issues.map(
      (i) => (w) =>
        i.path[0] === 'url' ? w.addressRefused(i.message) : i.path[0] === 'events' ? w.noEvents : i.message,
    ),
  };
}

/** A refused address (checked against where it resolves), said in the form's words. */
function addressProblem(err: unknown): WebhookProblem[] | undefined {
  const detail =
    err instanceof AppError && err.status === 400 ? err.details?.find((d) => d.field === 'url') : undefined;
  return detail ? [(w) => w.addressRefused(detail.message)] : undefined;
}

/**
 * The add and change forms' post: checked, then saved; a refusal (the form's, or the address's once it is
 * resolved) goes back to the form with what was sent.
 */
async function savedOr<T>(
  deps: Deps,
  form: WebhookForm,
  save: (body: CreateWebhook) => Promise<T>,
  refused: (problems: WebhookProblem[], values: WebhookFormValues) => Promise<T>,
): Promise<T> {
  const values = valuesOf(form);
  const result = checked(deps, values);
  if (!result.body) return refused(result.problems, values);
  try {
    return await save(result.body);
  } catch (err) {
    const problems = addressProblem(err);
    if (problems) return refused(problems, values);
    throw err;
  }
}

/** A webhook's page, with its messages (a page of them, maybe only in one status) and what just happened. */
async function showWebhook(
  deps: Deps,
  ctx: RequestContext,
  token: string,
  id: string,
  extra: { status?: number; list?: { page?: number; status?: string } } & Partial<WebhookPageView> = {},
) {
  const { status, list, ...rest } = extra;
  const webhook = extra.webhook ?? (await getWebhook(deps, ctx, id));
  const query = ListDeliveriesQuery.parse({
    page: list?.page ?? 1,
    limit: PAGE_SIZE,
    status: list?.status || undefined,
  });
  const { deliveries, total } = await listDeliveries(deps, ctx, id, query);
  return {
    status: status ?? 200,
    html: webhookPage(await deskFrame(deps, ctx, token), {
      deliveries,
      total,
      page: query.page,
      limit: PAGE_SIZE,
      filter: query.status,
      ...rest,
      webhook,
    }),
  };
}

/**
 * Integrations → webhooks (administrators): add one (its secret shown once), see its messages with what
 * was sent and answered, send one again, send a test, give it a new secret, change, disable, delete it.
 */
export function webhookPageRoutes(routes: Routes, deps: Deps): void {
  webhookReadRoutes(routes, deps);
  webhookChangeRoutes(routes, deps);
}

function webhookReadRoutes(routes: Routes, deps: Deps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/integrations/webhooks/{webhookId}',
      summary: 'A webhook: what it sends where, its signing secrets, and its messages with their answers',
      params: WebhookParams,
      query: z.object({
        done: z.string().max(30).optional(),
        status: z.enum(['', 'pending', 'succeeded', 'failed', 'cancelled']).optional(),
        page: z.coerce.number().int().min(1).max(100_000).optional(),
      }),
      statuses: { 200: 'The webhook’s page', 404: 'Unknown webhook' },
    },
    async ({ ctx, params, query, csrf }) =>
      showWebhook(deps, ctx, csrf(), params.webhookId, {
        list: { page: query.page, status: query.status },
        notice: notices.find((n) => n === query.done),
      }),
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/integrations/webhooks',
      summary: 'Add a webhook (form post): its page shows the signing secret once',
      description: 'Fields: `_csrf`, `url`, `description`, `events` (repeated; `*` for every event).',
      form: WebhookForm,
      statuses: { 201: 'Added: its page, with the secret shown once', 400: 'Refused (each problem named)' },
    },
    async ({ ctx, form, csrf }) =>
      savedOr(
        deps,
        form,
        async (body) => {
          const { secret, ...webhook } = await createWebhook(deps, ctx, body);
          return showWebhook(deps, ctx, csrf(), webhook._id, {
            status: 201,
            webhook,
            secret,
            notice: 'created',
          });
        },
        (problems, webhookForm) =>
          showIntegrations(deps, ctx, csrf(), { status: 400, problems, webhookForm }),
      ),
  );
}

const Post = z.object({ _csrf: csrfInput });

function webhookChangeRoutes(routes: Routes, deps: Deps): void {
  const base = '/staff/integrations/webhooks/{webhookId}';
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: base,
      summary: 'Change a webhook’s address, description or events (form post)',
      params: WebhookParams,
      form: WebhookForm,
      statuses: {
        303: 'Saved: back to its page',
        400: 'Refused (each problem named)',
        404: 'Unknown webhook',
      },
    },
    async ({ ctx, params, form, csrf }) =>
      savedOr<PageResult>(
        deps,
        form,
        async ({ url, events, description }) => {
          await updateWebhook(deps, ctx, params.webhookId, { url, events, description: description ?? null });
          return { redirect: `/staff/integrations/webhooks/${params.webhookId}?done=saved` };
        },
        (problems, values) =>
          showWebhook(deps, ctx, csrf(), params.webhookId, { status: 400, problems, form: values }),
      ),
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${base}/test`,
      summary: 'Send a signed test message to a webhook now (form post): its page shows the answer',
      params: WebhookParams,
      form: Post,
      statuses: { 200: 'Its page, with the answer', 404: 'Unknown webhook' },
    },
    async ({ ctx, params, csrf }) => {
      const test = await testWebhook(deps, ctx, params.webhookId);
      return showWebhook(deps, ctx, csrf(), params.webhookId, { test });
    },
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${base}/rotate`,
      summary: 'Give a webhook a new signing secret (form post): shown once; the old one signs 24 h more',
      params: WebhookParams,
      form: Post,
      statuses: { 200: 'Its page, with the new secret shown once', 404: 'Unknown webhook' },
    },
    async ({ ctx, params, csrf }) => {
      const { secret, ...webhook } = await rotateWebhookSecret(deps, ctx, params.webhookId, {
        overlapHours: 24,
      });
      return showWebhook(deps, ctx, csrf(), params.webhookId, { webhook, secret, notice: 'rotated' });
    },
  );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    routes.staffPage(
      {
        ...adminPage,
        method: 'post',
        path: `${base}/${action}`,
        summary: enabled
          ? 'Enable a webhook again (form post)'
          : 'Disable a webhook (form post): its waiting messages are cancelled',
        params: WebhookParams,
        form: Post,
        statuses: { 303: 'Done: back to its page', 404: 'Unknown webhook' },
      },
      async ({ ctx, params }) => {
        await updateWebhook(deps, ctx, params.webhookId, { enabled });
        return { redirect: `/staff/integrations/webhooks/${params.webhookId}?done=${action}d` };
      },
    );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${base}/delete`,
      summary: 'Delete a webhook with its messages (form post)',
      params: WebhookParams,
      form: Post,
      statuses: { 303: 'Deleted: back to Integrations', 404: 'Unknown webhook' },
    },
    async ({ ctx, params }) => {
      await deleteWebhook(deps, ctx, params.webhookId);
      return { redirect: '/staff/integrations?done=webhook-deleted#webhooks' };
    },
  );
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: `${base}/deliveries/{deliveryId}/redeliver`,
      summary: 'Send a webhook’s message again (form post)',
      params: WebhookParams.extend({ deliveryId: idParam('deliveryId') }),
      form: Post,
      statuses: {
        303: 'Queued: back to its page',
        404: 'Unknown webhook or message',
        409: 'Still waiting to be sent, or the webhook is disabled',
      },
    },
    async ({ ctx, params, csrf }) => {
      try {
        await redeliver(deps, ctx, params.deliveryId);
      } catch (err) {
        const { status, message } = refusalMessage(err);
        return showWebhook(deps, ctx, csrf(), params.webhookId, { status, problems: [message] });
      }
      return { redirect: `/staff/integrations/webhooks/${params.webhookId}?done=redelivered#deliveries` };
    },
  );
}
