import type { Config } from '../../config';
import type { Logger } from '../ops/logger';
import { writeToOutbox } from './mail';
import { OutboundRefused, operatorPolicy, SafeHttpClient } from './safe-http';

export interface SmsMessage {
  /** Stable for the message whatever the attempt: sent as the provider's `Idempotency-Key` header. */
  key: string;
  to: string;
  text: string;
  /** The organisation's sender id (up to 11 letters, digits and spaces); absent or null: SMS_FROM. */
  from?: string | null;
}

/** Sends SMS; throws when the provider did not accept the message (the job queue retries). */
export interface SmsSender {
  readonly kind: 'http' | 'outbox';
  send(message: SmsMessage): Promise<{ messageId: string | null }>;
}

/**
 * The generic JSON provider: POST {to, from, text} to SMS_PROVIDER_URL (`from`: the organisation's sender
 * id, else SMS_FROM) (bearer SMS_PROVIDER_TOKEN when
 * set); any 2xx is accepted, and an `id` or `messageId` in the answer is kept. Without a provider,
 * messages are written as .json files to DATA_DIR/outbox.
 */
export function createSmsSender(config: Config['sms'], logger: Logger): SmsSender {
  if (config.kind === 'http') {
    const client = new SafeHttpClient(operatorPolicy);
    return {
      kind: 'http',
      async send(m) {
        const res = await client.post(config.url, {
          body: JSON.stringify({ to: m.to, from: m.from || config.from, text: m.text }),
          headers: {
            'user-agent': 'ActionDesk',
            'idempotency-key': m.key,
            ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
          },
          timeoutMs: 10_000,
          // Keep only the start of what the provider says, for error messages (and its message id).
          maxBodyBytes: 500,
        });
        if (res.status < 200 || res.status >= 300) {
          throw new OutboundRefused(`SMS provider answered ${res.status}: ${res.body.slice(0, 200)}`);
        }
        return { messageId: messageIdOf(res.body) };
      },
    };
  }
  return {
    kind: 'outbox',
    async send(m) {
      const written = { key: m.key, to: m.to, from: m.from || config.from, text: m.text };
      const file = await writeToOutbox(config.dir, 'sms.json', `${JSON.stringify(written, null, 2)}\n`);
      logger.info({ to: m.to, file }, 'SMS written to the outbox (no SMS_PROVIDER_URL)');
      return { messageId: null };
    },
  };
}

function messageIdOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { id?: unknown; messageId?: unknown };
    const id = parsed.id ?? parsed.messageId;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
}
