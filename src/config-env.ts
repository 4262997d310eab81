import { parseEncryptionKeys } from './platform/crypto/sealed';
import { z } from './platform/kernel/zod';
import { parseNetworks } from './platform/outbound/address-filter';
import { isPhoneRegion } from './platform/outbound/phone';

// The environment variables the service reads: names, formats, bounds and defaults (docs/operations.md).
// loadConfig (config.ts) turns them into the Config every part of the service takes.

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const intFrom = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** A comma-separated list of networks (CIDR), e.g. `10.1.0.0/16,127.0.0.0/8`. */
const networkList = z.string().superRefine((text, ctx) => {
  try {
    parseNetworks(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intFrom(0, 65535).default(3000),
  HOST: z.string().min(1).optional(),
  BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://desk.example.com' })
    .refine((u) => !u.endsWith('/'), 'must not end with a slash')
    .optional(),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_MIGRATION_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_LISTEN_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: intFrom(1, 500).default(10),
  DATABASE_CONNECT_TIMEOUT_SECONDS: intFrom(1, 600).default(5),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: intFrom(1, 3600).default(30),
  DATABASE_MAX_WAITING: intFrom(1, 100_000).default(200),
  REQUEST_HEADERS_TIMEOUT_SECONDS: intFrom(1, 600).default(10),
  REQUEST_TIMEOUT_SECONDS: intFrom(1, 3600).default(60),
  SHUTDOWN_GRACE_SECONDS: intFrom(1, 600).default(25),
  SHUTDOWN_DRAIN_SECONDS: intFrom(0, 600).default(5),
  RETENTION_JOBS_DAYS: intFrom(0, 36_500).default(30),
  RETENTION_EVENTS_DAYS: intFrom(0, 36_500).default(90),
  RETENTION_AUDIT_DAYS: intFrom(0, 36_500).default(730),
  RETENTION_SWEEP_MINUTES: intFrom(1, 10_080).default(60),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (e.g. openssl rand -hex 24)')
    .max(256)
    .optional(),
  METRICS_PORT: intFrom(1, 65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must be a size such as 512kb or 1mb')
    .default('1mb'),
  MAX_FILE_SIZE: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must be a size such as 512kb or 20mb')
    .default('20mb'),
  SIGNED_COPY_ATTACH_MAX_SIZE: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must be a size such as 512kb or 5mb')
    .default('5mb'),
  FILE_STORAGE: z.enum(['disk', 'database', 's3']).optional(),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://s3.eu-west-1.amazonaws.com' })
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)',
    )
    .optional(),
  S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9!_.*'()-]+\/)*$/, 'must be empty or end with a slash, such as actiondesk/')
    .default(''),
  S3_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  S3_TIMEOUT_SECONDS: intFrom(1, 600).default(30),
  AUTH_CACHE_TTL_SECONDS: intFrom(0, 3600).default(60),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9A-Za-z.:/, ]{1,500})$/,
      'must be false, the number of proxies in front of the service (e.g. 1), or their addresses (e.g. loopback, 10.0.0.0/8)',
    )
    .default('false'),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail:587',
    })
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).optional(),
  SMS_PROVIDER_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL that accepts a JSON POST' })
    .optional(),
  SMS_PROVIDER_TOKEN: z.string().min(1).optional(),
  SMS_FROM: z
    .string()
    .regex(
      /^[A-Za-z0-9 ]{1,11}$|^\+?[0-9]{3,15}$/,
      'must be an alphanumeric sender of up to 11 characters or a number',
    )
    .default('ActionDesk'),
  PHONE_DEFAULT_REGION: z
    .string()
    .refine(isPhoneRegion, 'must be a two-letter region code such as BE or NL')
    .default('BE'),
  TIME_ZONE: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/Brussels')
    .default('Europe/Brussels'),
  JOB_WORKER: z.enum(['true', 'false']).default('true'),
  JOB_POLL_SECONDS: intFrom(1, 3600).default(5),
  JOB_CONCURRENCY: intFrom(1, 500).default(50),
  ENCRYPTION_KEYS: z
    .string()
    .superRefine((text, ctx) => {
      try {
        parseEncryptionKeys(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
  SIGNING_CERT_P12: z.string().min(1).optional(),
  SIGNING_CERT_PASSWORD: z.string().optional(),
  TSA_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) URL of an RFC 3161 time-stamping authority' })
    .optional(),
  TSA_FALLBACK_URLS: z
    .string()
    .superRefine((text, ctx) => {
      for (const url of text.split(',').map((u) => u.trim()))
        if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
          ctx.addIssue({
            code: 'custom',
            message: `"${url}" is not an http(s) URL (list them comma-separated)`,
          });
    })
    .optional(),
  TSA_USERNAME: z.string().min(1).optional(),
  TSA_PASSWORD: z.string().optional(),
  TSA_TIMEOUT_SECONDS: intFrom(1, 120).default(10),
  // The networks inside this one where the OCSP responders and CRLs that certificates name may be.
  REVOCATION_PRIVATE_NETWORKS: networkList.optional(),
  PADES_LEVEL: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).optional(),
  SETUP_TTL_HOURS: intFrom(1, 720).default(24),
  STAFF_IDLE_MINUTES: intFrom(5, 1440).default(60),
  STAFF_SESSION_HOURS: intFrom(1, 168).default(12),
  PASSWORD_LINK_HOURS: intFrom(1, 168).default(24),
  OAUTH_ACCESS_TOKEN_SECONDS: intFrom(60, 604_800).default(28_800),
  OAUTH_REFRESH_TOKEN_DAYS: intFrom(1, 365).default(30),
  QUALIFIED_SIGNING_PROVIDER: z.string().min(1).max(100).optional(),
  QUALIFIED_SIGNING_URL: z.url().optional(),
  QUALIFIED_SIGNING_CLIENT_ID: z.string().min(1).optional(),
  QUALIFIED_SIGNING_CLIENT_SECRET: z.string().min(1).optional(),
  WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_TIMEOUT_SECONDS: intFrom(1, 30).default(10),
  // Replaced by SSO_PRIVATE_NETWORKS: still read, to refuse a start that relies on it.
  SSO_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
  SSO_PRIVATE_NETWORKS: networkList.optional(),
  DIRECTORY_SYNC_MINUTES: intFrom(5, 10_080).default(60),
  RATE_LIMIT_API_PER_MINUTE: intFrom(1, 1_000_000).default(600),
  RATE_LIMIT_PUBLIC_PER_MINUTE: intFrom(1, 1_000_000).default(300),
  RATE_LIMIT_SIGNIN_PER_15_MINUTES: intFrom(1, 1_000_000).default(300),
  RATE_LIMIT_TOKEN_PER_MINUTE: intFrom(1, 1_000_000).default(120),
  RATE_LIMIT_WRONG_CODES_PER_10_MINUTES: intFrom(1, 1_000_000).default(30),
  RATE_LIMIT_NEW_VISITORS_PER_10_MINUTES: intFrom(1, 1_000_000).default(20),
});

/** The environment, checked: what loadConfig builds the Config from. */
export type Env = z.infer<typeof envSchema>;
