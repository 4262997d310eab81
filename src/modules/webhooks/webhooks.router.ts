import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  ListDeliveriesQuery,
  ListWebhooksQuery,
  RotateWebhookSecret,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestResult,
  WebhookWithSecret,
  webhookBodiesFor,
} from './webhooks.schemas';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookDeps,
} from './webhooks.service';

const WebhookParams = z.object({ webhookId: idParam('webhookId') });
const DeliveryParams = z.object({ deliveryId: idParam('deliveryId') });
const tags = ['Webhooks'];

export function webhookRoutes(routes: Routes, deps: WebhookDeps): void {
  const bodies = webhookBodiesFor(deps.policy.allowHttp);
  routes.add(
    {
      method: 'post',
      path: '/webhooks',
      summary: 'Subscribe an endpoint to events; answers its signing secret, once',
      description:
        'The URL must be https (http only where the service allows it) and must not resolve to a loopback, private, link-local or metadata address (checked now and again at every delivery). The answer carries `secret` (whsec_…) — the only time it is shown. Deliveries are signed per Standard Webhooks (docs/webhooks.md).',
      tags,
      permission: 'admin',
      body: bodies.create,
      status: 201,
      response: WebhookWithSecret,
    },
    ({ ctx, body }) => createWebhook(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/webhooks',
      summary: 'List the organisation’s webhooks',
      tags,
      permission: 'admin',
      query: ListWebhooksQuery,
      response: WebhookList,
    },
    ({ ctx, query }) => listWebhooks(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/webhooks/{webhookId}',
      summary: 'Get a webhook (without its secrets’ values)',
      tags,
      permission: 'admin',
      params: WebhookParams,
      response: Webhook,
    },
    ({ ctx, params }) => getWebhook(deps, ctx, params.webhookId),
  );
  routes.add(
    {
      method: 'patch',
      path: '/webhooks/{webhookId}',
      summary: 'Change a webhook’s url, events, description or enabled',
      description:
        'Setting `enabled: true` on a webhook the service disabled (after 3 days of failures) clears its failing streak; the deliveries cancelled meanwhile can then be redelivered.',
      tags,
      permission: 'admin',
      params: WebhookParams,
      body: bodies.update,
      response: Webhook,
    },
    ({ ctx, params, body }) => updateWebhook(deps, ctx, params.webhookId, body),
  );
  routes.add(
    {
      method: 'delete',
      path: '/webhooks/{webhookId}',
      summary: 'Delete a webhook and its delivery log',
      tags,
      permission: 'admin',
      params: WebhookParams,
      status: 204,
      responseDescription: 'Deleted',
    },
    async ({ ctx, params }) => {
      await deleteWebhook(deps, ctx, params.webhookId);
      return undefined;
    },
  );
  routes.add(
    {
      method: 'post',
      path: '/webhooks/{webhookId}/rotate-secret',
      summary: 'Give the webhook a new signing secret; the current one keeps signing during the overlap',
      description:
        'Answers the new `secret`, once. For `overlapHours` (default 24) every delivery carries two signatures, one per secret, so a receiver verifies with either while it switches.',
      tags,
      permission: 'admin',
      params: WebhookParams,
      body: RotateWebhookSecret,
      optionalBody: true,
      response: WebhookWithSecret,
    },
    ({ ctx, params, body }) => rotateWebhookSecret(deps, ctx, params.webhookId, body),
  );
  routes.add(
    {
      method: 'post',
      path: '/webhooks/{webhookId}/test',
      idempotent: false,
      summary: 'Send a signed `webhook.test` message now and answer what the endpoint said',
      description:
        'Also works on a disabled webhook (to check it before enabling it). The message is not an event: it is not listed or logged as a delivery.',
      tags,
      permission: 'admin',
      params: WebhookParams,
      response: WebhookTestResult,
    },
    ({ ctx, params }) => testWebhook(deps, ctx, params.webhookId),
  );
  routes.add(
    {
      method: 'get',
      path: '/webhooks/{webhookId}/deliveries',
      summary: 'The webhook’s delivery log, newest first: status, attempts, answers, the request sent',
      tags,
      permission: 'admin',
      params: WebhookParams,
      query: ListDeliveriesQuery,
      response: WebhookDeliveryList,
    },
    ({ ctx, params, query }) => listDeliveries(deps, ctx, params.webhookId, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/webhooks/deliveries/{deliveryId}/redeliver',
      summary: 'Send a delivery again (same event and webhook-id, a fresh series of attempts)',
      description: 'A delivery still pending, or one whose webhook is disabled, is a 409.',
      tags,
      permission: 'admin',
      params: DeliveryParams,
      status: 202,
      response: WebhookDelivery,
      errors: [409],
    },
    ({ ctx, params }) => redeliver(deps, ctx, params.deliveryId),
  );
}
