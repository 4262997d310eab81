import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import { carriesCredentials, redactFields, redactText } from './redaction';

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

/** pino's error serializer, with every credential taken out of the message and stack (redaction.ts). */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  // A copy of what pino serialised (data, under a prototype of pino's own), nested errors included.
  return redactFields(out, true);
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
      // While a request that carries a credential is served, whatever is logged has its value removed.
      formatters: {
        log: (fields) => (carriesCredentials() ? (redactFields(fields) as typeof fields) : fields),
      },
      hooks: {
        logMethod(args, method) {
          if (carriesCredentials())
            for (let i = 0; i < args.length; i++)
              if (typeof args[i] === 'string') args[i] = redactText(args[i] as string);
          return method.apply(this, args);
        },
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
