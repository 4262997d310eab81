// The webhooks module's public entry: what other modules may use.
export {
  RETRY_SCHEDULE_MS,
  webhookDeliveryHandler,
  webhookDeliveryJob,
  webhookDisabledNoticeHandler,
  webhookDisabledNoticeJob,
} from './webhooks.delivery';
export { webhookRoutes } from './webhooks.router';
export { deliverEventsByWebhook } from './webhooks.service';
