export { type ActionDeskClient, createClient } from './client.js';
export type { OAuthClientCredentials } from './credentials.js';
export { ActionDeskConnectionError, ActionDeskError, type ErrorDetail } from './errors.js';
export { type WebhookEvent, type WebhookEventType, webhookEventTypes } from './generated/events.js';
export type * from './generated/models.js';
export type * from './generated/operations.js';
export { specs as operationSpecs } from './generated/operations.js';
export type { components, operations, paths } from './generated/schema.js';
export { ListCall, SyncCall, type SyncFrom } from './pagination.js';
export type { RetryOptions } from './retry.js';
export type { FilePart, OperationSpec } from './spec.js';
export type { AnswerInfo, CallOptions, ClientOptions, Credentials } from './transport.js';
export { VERSION } from './version.js';
export {
  type EventOf,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookMessage,
  type WebhookTestEvent,
  WebhookVerificationError,
} from './webhooks.js';
