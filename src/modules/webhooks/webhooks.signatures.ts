// Standard Webhooks messages: the signing secrets, the signed headers, the signed POST and the ping.
import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Clock } from '../../platform/kernel/clock';
import { newId } from '../../platform/kernel/ids';
import type { SafeHttpClient } from '../../platform/outbound/safe-http';
import type { EndpointRow } from './webhooks.repository';

/** The most of an endpoint's answer that is read and kept. */
const RESPONSE_BODY_LIMIT = 4096;

/** A new signing secret: whsec_ and 32 random bytes in base64 (Standard Webhooks' format). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The secrets that sign now: the current one and replaced ones still in their overlap. A secret that
 * does not open (its encryption key is no longer configured) is left out and named in `problems`.
 */
export function signingSecrets(
  deps: { box: SecretBox },
  endpoint: Pick<EndpointRow, 'id' | 'secrets'>,
  now: Date,
) {
  const secrets: string[] = [];
  const problems: string[] = [];
  for (const s of endpoint.secrets) {
    if (s.expiresAt !== null && new Date(s.expiresAt) <= now) continue;
    try {
      secrets.push(deps.box.open(s.sealed, endpoint.id));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { secrets, problems };
}

/** The Standard Webhooks headers for one message: one v1 signature per secret, space-separated. */
export function signedHeaders(
  secrets: string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Signer(s).sign(messageId, at, body)).join(' '),
  };
}

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  request: { url: string; headers: Record<string, string>; body: string };
}

/** What sending a signed message needs. */
export interface SendDeps {
  box: SecretBox;
  http: SafeHttpClient;
  timeoutMs: number;
  clock: Clock;
}

/** Signs and POSTs one message; never throws for what the endpoint does (that is the result). */
export async function sendSigned(
  deps: SendDeps,
  endpoint: Pick<EndpointRow, 'id' | 'url' | 'secrets'>,
  messageId: string,
  body: string,
  signal?: AbortSignal,
): Promise<SendResult> {
  const now = deps.clock.now();
  const { secrets, problems } = signingSecrets(deps, endpoint, now);
  if (secrets.length === 0) {
    return {
      ok: false,
      responseStatus: null,
      responseBody: null,
      durationMs: 0,
      error: `not sent: no signing secret opens (${problems.join('; ')}); rotate the webhook's secret`,
      request: { url: endpoint.url, headers: {}, body },
    };
  }
  const headers = signedHeaders(secrets, messageId, now, body);
  const request = { url: endpoint.url, headers, body };
  const started = performance.now();
  try {
    const res = await deps.http.post(endpoint.url, {
      headers,
      body,
      timeoutMs: deps.timeoutMs,
      maxBodyBytes: RESPONSE_BODY_LIMIT,
      signal,
    });
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
        ? `answered ${res.status} (a redirect${res.location ? ` to ${res.location.slice(0, 200)}` : ''}, not followed: register the final address)`
        : `answered ${res.status}`;
    return {
      ok,
      responseStatus: res.status,
      responseBody: res.body,
      durationMs: res.durationMs,
      error,
      request,
    };
  } catch (err) {
    return {
      ok: false,
      responseStatus: null,
      responseBody: null,
      durationMs: Math.round(performance.now() - started),
      error: (err as Error).message.slice(0, 500),
      request,
    };
  }
}

/** A ping's body: not a stored event, so it is never listed by GET /events. */
export function pingMessage(webhookId: string, organisationId: string, at: Date, livemode = true) {
  const id = newId(at.getTime());
  return {
    id,
    body: JSON.stringify({
      id,
      type: 'webhook.test',
      createdAt: at.toISOString(),
      organisationId,
      livemode,
      data: { webhookId, message: 'This is a test delivery from ActionDesk.' },
    }),
  };
}
