import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent, WebhookEventType } from './generated/events.js';

/** The ping `POST /webhooks/{id}/test` sends: not an event (never listed by `GET /events`). */
export interface WebhookTestEvent {
  id: string;
  type: 'webhook.test';
  createdAt: string;
  organisationId: string;
  /** false when pinged from test mode. */
  livemode: boolean;
  data: { webhookId: string; message: string };
}

/** Whatever a webhook endpoint is sent: an event, or the test ping. */
export type WebhookMessage = WebhookEvent | WebhookTestEvent;

/** The event of one type: `EventOf<'customer.created'>`. */
export type EventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** A request's headers: the Fetch API's `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The clock, in epoch milliseconds. */
  now?: () => number;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** The key of a `whsec_…` secret (Standard Webhooks: base64 after the prefix). */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  if (key.length === 0) throw new TypeError('verifyWebhook: the secret is empty');
  return key;
}

/**
 * Checks a webhook delivery as the Standard Webhooks specification says, and answers its event: the
 * `webhook-signature` must hold a `v1` HMAC-SHA256 of `webhook-id.webhook-timestamp.body` by the secret
 * (during a rotation give both secrets), and the timestamp must be within the tolerance of now (which
 * refuses an old delivery replayed). `body` is the raw body, exactly as received. Throws a
 * WebhookVerificationError saying what failed.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  body: string | Uint8Array,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookMessage {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = (options.now ?? Date.now)();
  const tolerance = (options.toleranceSeconds ?? 300) * 1000;
  const at = Number(timestamp) * 1000;
  if (at < now - tolerance) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (at > now + tolerance) throw new WebhookVerificationError('webhook-timestamp is in the future');
  const bytes =
    typeof body === 'string'
      ? Buffer.from(body, 'utf8')
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const given = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const signed = secrets.some((s) => {
    const expected = createHmac('sha256', keyOf(s)).update(`${id}.${timestamp}.`).update(bytes).digest();
    return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
  });
  if (!signed) throw new WebhookVerificationError('no signature matches: the body, headers or secret differ');
  try {
    return JSON.parse(bytes.toString('utf8')) as WebhookMessage;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
