import { webhookDeliveryStatuses } from '../../db/schema/enums';
import { eventTypes } from '../../platform/events/event-types';
import { withSecretsShownOnce } from '../../platform/http/shown-once';
import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, cursorQuery, walkQuery } from '../../platform/lists/cursor';
import { pageQuery } from '../../platform/lists/pagination';

const eventSelector = z
  .array(
    z
      .string()
      .max(100)
      .meta({ enum: ['*', ...eventTypes] }),
  )
  .min(1)
  .max(eventTypes.length)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (t !== '*' && !(eventTypes as readonly string[]).includes(t))
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `is not an event type (see GET /openapi.json webhooks)`,
        });
      else if (seen.has(t)) ctx.addIssue({ code: 'custom', path: [i], message: 'repeats an event type' });
      seen.add(t);
    });
    if (list.includes('*') && list.length > 1)
      ctx.addIssue({ code: 'custom', message: '"*" already means every event: give it alone' });
  })
  .meta({
    uniqueItems: true,
    description: `Event types to send, or ["*"] (alone) for all: ${eventTypes.join(', ')}`,
  });

/**
 * Where deliveries go. The pattern is this server's own rule, the one destinationProblem applies:
 * `^https://`, or `^https?://` on a server started with WEBHOOK_ALLOW_HTTP=true (development; refused in
 * production), so the document a server serves says what it accepts.
 */
const webhookUrl = (allowHttp: boolean) =>
  z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .meta({
      format: 'uri',
      pattern: allowHttp ? '^https?://' : '^https://',
      description: `Where deliveries are POSTed: ${
        allowHttp
          ? 'an https or http URL (this server was started with WEBHOOK_ALLOW_HTTP=true, for development; production servers accept https only)'
          : 'an https URL'
      }. Its host must be, and resolve only to, public addresses: no loopback, private or other inner address (unless the server was started with WEBHOOK_ALLOW_PRIVATE=true, for development), and never a link-local, cloud metadata or unspecified one`,
      example: 'https://crm.example.com/hooks/actiondesk',
    });
const description = z.string().trim().max(500).nullable();

function webhookBodies(allowHttp: boolean) {
  const url = webhookUrl(allowHttp);
  return {
    create: z
      .strictObject({
        url,
        events: eventSelector,
        description: description.optional(),
        enabled: z.boolean().default(true),
      })
      .meta({ id: 'CreateWebhook' }),
    update: z
      .strictObject({
        url: url.optional(),
        events: eventSelector.optional(),
        description: description.optional(),
        enabled: z
          .boolean()
          .optional()
          .meta({ description: 'true re-enables a webhook that was disabled after failing for 3 days' }),
      })
      .refine((b) => Object.keys(b).length > 0, 'give at least one of url, events, description, enabled')
      .meta({ id: 'UpdateWebhook', minProperties: 1 }),
  };
}

const bodies = { httpsOnly: webhookBodies(false), httpToo: webhookBodies(true) };
/** The create and update bodies of a server that accepts http URLs too (allowHttp), or https only. */
export const webhookBodiesFor = (allowHttp: boolean) => (allowHttp ? bodies.httpToo : bodies.httpsOnly);
export type CreateWebhook = z.infer<typeof bodies.httpsOnly.create>;
export type UpdateWebhook = z.infer<typeof bodies.httpsOnly.update>;

export const RotateWebhookSecret = z
  .strictObject({
    overlapHours: z.number().int().min(0).max(168).default(24).meta({
      description: 'How long the current secret goes on signing beside the new one (0–168 h, default 24)',
    }),
  })
  .meta({ id: 'RotateWebhookSecret' });

const SecretInfo = z
  .object({
    _id: z.string(),
    createdAt: timestamp,
    expiresAt: timestamp
      .nullable()
      .meta({ description: 'When a replaced secret stops signing; null for the current one' }),
  })
  .meta({ id: 'WebhookSecretInfo' });

export const Webhook = z
  .object({
    _id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: 'Why the service disabled it, if it did' }),
    failingSince: timestamp.nullable().meta({ description: 'Since when deliveries fail without a success' }),
    secrets: z
      .array(SecretInfo)
      .meta({ description: 'The secrets that sign (their values are never shown again)' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = withSecretsShownOnce(Webhook, {
  secret: z.string().meta({
    description: 'The new signing secret (whsec_…): give it to your verifier now.',
  }),
}).meta({ id: 'WebhookWithSecret' });

export const WebhookList = z
  .object({ webhooks: z.array(Webhook), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'WebhookList' });

const SentRequest = z
  .object({
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.string().meta({ description: 'The JSON body exactly as sent (what the signature covers)' }),
  })
  .meta({ id: 'WebhookRequest' });

export const WebhookTestResult = z
  .object({
    delivered: z.boolean().meta({ description: 'Whether the endpoint answered 2xx' }),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable().meta({ description: 'The start of the answer (at most 4 KiB)' }),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    request: SentRequest,
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

export const WebhookDelivery = z
  .object({
    _id: z.string(),
    webhookId: z.string(),
    eventId: z.string().meta({ description: 'Also the webhook-id header of every attempt' }),
    eventType: z.string(),
    status: z.enum(webhookDeliveryStatuses).meta({
      description:
        'pending: queued or waiting for its next attempt; succeeded: answered 2xx; failed: every attempt failed; cancelled: the webhook was disabled',
    }),
    attempts: z.number().int(),
    nextAttemptAt: timestamp.nullable(),
    lastAttemptAt: timestamp.nullable(),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    request: SentRequest.nullable().meta({
      description: 'The last request sent; null before the first attempt',
    }),
    history: z
      .array(
        z.object({
          at: timestamp,
          status: z.number().int().nullable(),
          durationMs: z.number().int(),
          error: z.string().nullable(),
        }),
      )
      .meta({ description: 'Attempts, oldest first (the latest 30)' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z
  .object({ deliveries: z.array(WebhookDelivery), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'WebhookDeliveryList' });

export const ListDeliveriesQuery = z.object({
  status: z.enum(webhookDeliveryStatuses).optional().meta({ description: 'Only deliveries in this status' }),
  eventType: z.string().max(100).optional().meta({ description: 'Only deliveries of this event type' }),
  ...pageQuery,
  ...cursorQuery,
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const ListWebhooksQuery = z.object(walkQuery);
