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

/** Standard output, written asynchronously: lines written during a write are batched into the next one. */
export function stdoutDestination(): pino.DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 1, sync: false, minLength: 0 });
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'actiondesk' },
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
