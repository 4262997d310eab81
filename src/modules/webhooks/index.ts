// The webhooks module's public entry: what other modules may use.
export {
  RETRY_SCHEDULE_MS,
  webhookDeliveryHandler,
  webhookDeliveryJob,
  webhookDisabledNoticeHandler,
  webhookDisabledNoticeJob,
} from './webhooks.delivery';
export { webhookRoutes } from './webhooks.router';
export {
  type CreateWebhook,
  ListDeliveriesQuery,
  type Webhook,
  type WebhookDelivery,
  type WebhookTestResult,
  webhookBodiesFor,
} from './webhooks.schemas';
export {
  createWebhook,
  deleteWebhook,
  deliverEventsByWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookDeps,
} from './webhooks.service';
