import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths never written to logs, whatever the level. */
export const redactPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.apiKey',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.client_secret',
];

// A public action code is the contact's credential: logs show `/action/[redacted]`, never the code.
const ACTION_PATH = /\/action\/[^/?#\s"']+/gi;
// An action code anywhere in a message (e.g. a failed query's parameters): 20 characters of base32.
const ACTION_CODE = /\b[0-9a-hjkmnp-tv-z]{20}\b/gi;

// Query parameters that are credentials or personal data: an authorization code and state (single
// sign-on's callback), a CSRF token, an e-mail address (a sign-in hint).
const SECRET_PARAMS = /([?&](?:code|state|_csrf|email|login_hint)=)[^&#\s"']*/gi;

/** A URL for the logs: credentials and e-mail addresses in its query replaced, action codes too. */
export function redactUrl(url: string): string {
  return redactActionCodes(url.replace(SECRET_PARAMS, '$1[redacted]'));
}

/** The text with every public action code replaced. */
export function redactActionCodes(text: string): string {
  return text.replace(ACTION_PATH, '/action/[redacted]').replace(ACTION_CODE, '[redacted]');
}

/** pino's error serializer, with action codes taken out of the message and stack. */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  for (const key of ['message', 'stack'] as const) {
    if (typeof out[key] === 'string') out[key] = redactActionCodes(out[key] as string);
  }
  return out;
}

/** Standard output, written asynchronously: lines written during a write are batched into the next one. */
export function stdoutDestination(): pino.DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 1, sync: false, minLength: 0 });
}

/** What every log line written in the current request or job carries (its request id, the job). */
const logFields = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `fn` with `fields` added to every log line written within it, by any logger made with
 * createLogger (and to those of an enclosing call): a request's id on the lines of everything it calls,
 * a job's id and the id of the request that made it on the lines of the job.
 */
export function withLogFields<T>(fields: Record<string, unknown>, fn: () => T): T {
  const outer = logFields.getStore();
  return logFields.run(outer ? { ...outer, ...fields } : fields, fn);
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      mixin: () => logFields.getStore() ?? {},
      base: { service: 'actiondesk' },
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
