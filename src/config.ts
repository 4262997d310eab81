import fs from 'node:fs';
import path from 'node:path';
import { type Env, envSchema, type logLevels } from './config-env';
import { type EncryptionKey, parseEncryptionKeys } from './platform/crypto/sealed';
import type { ServerLimits } from './platform/db/database';
import type { FileStorageConfig } from './platform/files/file-storage';
import type { RateLimitConfig } from './platform/http/rate-limit';
import type { RetentionConfig } from './platform/ops/retention';
import { parseNetworks } from './platform/outbound/address-filter';
import type { PadesLevel } from './platform/signing/pades';
import { type QualifiedSigningConfig, qualifiedProvider } from './platform/signing/qualified';
import type { SealKeyConfig } from './platform/signing/seal-key';
import type { TsaConfig } from './platform/signing/tsa';

/** Raised when the environment holds a value the service cannot run with; names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string | undefined;
  readonly baseUrl: string;
  readonly database:
    | { readonly kind: 'embedded'; readonly dataDir: string }
    | {
        readonly kind: 'server';
        readonly url: string;
        readonly poolSize: number;
        readonly limits: ServerLimits;
        /** Where workers LISTEN for new jobs: DATABASE_LISTEN_URL, or DATABASE_URL. */
        readonly listenUrl: string;
        /** Set: migrations run there as the owner, and DATABASE_URL logs in as actiondesk_app (pgbouncer). */
        readonly migrationUrl: string | null;
      };
  /** How long a client may take to send its request headers, and the whole request with its body. */
  readonly requestTimeouts: { readonly headersMs: number; readonly requestMs: number };
  /** On SIGTERM: how long requests and jobs in progress may take to finish before they are cut off. */
  readonly shutdownGraceMs: number;
  /**
   * On SIGTERM, first: how long the process keeps serving (and accepting) while /health answers 503
   * `draining`, so that a load balancer stops sending before the listening socket closes.
   */
  readonly shutdownDrainMs: number;
  /**
   * Prometheus metrics: at /metrics on the API's port with a bearer token, and/or on a port of their
   * own without one (for a network only the scraper reaches).
   */
  readonly metrics: {
    readonly token: string | null;
    readonly port: number | null;
    readonly host: string | undefined;
  };
  /** How long finished jobs, delivered events and audit records are kept (null: for ever). */
  readonly retention: RetentionConfig;
  readonly dataDir: string;
  readonly logLevel: (typeof logLevels)[number];
  readonly bodyLimit: string;
  /** Largest file accepted by POST /files, in bytes. */
  readonly maxFileBytes: number;
  /** Largest signed copy e-mailed to a signer as an attachment, in bytes; a larger one goes as a link. */
  readonly signedCopyAttachMaxBytes: number;
  /** Where file contents are stored (FILE_STORAGE; see docs/operations.md#files). */
  readonly files: FileStorageConfig;
  readonly authCacheTtlMs: number;
  /** Express's `trust proxy`: false, true (any proxy: the client can name its own address), a hop count or addresses. */
  readonly trustProxy: boolean | number | string;
  /** Where e-mail goes: an SMTP server, or .eml files in DATA_DIR/outbox when none is configured. */
  readonly mail:
    | { readonly kind: 'smtp'; readonly url: string; readonly from: string }
    | { readonly kind: 'outbox'; readonly dir: string; readonly from: string };
  /** Where SMS goes: the generic JSON HTTP provider, or .json files in DATA_DIR/outbox. */
  readonly sms:
    | {
        readonly kind: 'http';
        readonly url: string;
        readonly token: string | undefined;
        readonly from: string;
      }
    | { readonly kind: 'outbox'; readonly dir: string; readonly from: string };
  /** Time zone in which dates are written in messages to contacts. */
  readonly timeZone: string;
  /** Region in which a phone number written without a country code is read (ISO 3166 alpha-2). */
  readonly phoneRegion: string;
  /**
   * Whether this process runs the background job worker, how often it looks for due jobs, and how many
   * it runs at once.
   */
  readonly jobs: { readonly worker: boolean; readonly pollMs: number; readonly concurrency: number };
  /**
   * The keys secrets are sealed with (first seals, all open), or, outside production when none are
   * configured, a key file generated in DATA_DIR on first start.
   */
  readonly encryption:
    | { readonly kind: 'keys'; readonly keys: readonly EncryptionKey[] }
    | { readonly kind: 'file'; readonly path: string };
  /**
   * The key documents are sealed with: a configured PKCS#12 file, or the service's own, generated on
   * first start and kept in the database.
   */
  readonly signing: SealKeyConfig;
  /**
   * The PAdES level seals are made at (docs/signing.md): B-LT when a time-stamping authority is
   * configured, else B-B, unless PADES_LEVEL says otherwise; and the authorities, in the order tried.
   */
  readonly pades: {
    readonly level: PadesLevel;
    readonly tsa: TsaConfig | null;
    /** Private networks the revocation addresses certificates name may be on (else public only). */
    readonly revocationNetworks: readonly string[];
  };
  /** How long a deep-link setup (quick-signing, action) can be opened. */
  readonly setupTtlMs: number;
  /** Staff browser sessions: idle and absolute timeouts; how long an e-mailed password link works. */
  readonly staff: { readonly idleMs: number; readonly absoluteMs: number; readonly passwordLinkMs: number };
  /** OAuth 2.0: lifetime of access tokens, in seconds. */
  readonly oauth: { readonly accessTokenSeconds: number; readonly refreshTokenSeconds: number };
  /** A qualified trust service (docs/signing.md#qualified-signatures); null: none. */
  readonly qualifiedSigning: QualifiedSigningConfig | null;
  /** Where webhooks may be sent, and how long a delivery may take. */
  readonly webhooks: {
    readonly allowHttp: boolean;
    readonly allowPrivate: boolean;
    readonly timeoutMs: number;
  };
  /**
   * The loopback or private networks sign-in providers and directories may live on (an on-premises
   * provider, a test's provider on 127.0.0.1), normalised (`10.1.0.0/16`): none by default, so that a
   * provider's address cannot reach inside.
   */
  readonly sso: { readonly privateNetworks: readonly string[]; readonly directorySyncMs: number };
  readonly rateLimits: RateLimitConfig;
}

function bytesOf(size: string): number {
  const [, n = '0', unit = 'b'] = /^(\d+)(b|kb|mb)$/i.exec(size) ?? [];
  return Number(n) * ({ b: 1, kb: 1024, mb: 1024 * 1024 } as Record<string, number>)[unit.toLowerCase()]!;
}

/**
 * Loads a `.env` file (default: `./.env` in the working directory) into process.env when there is one.
 * Variables already set in the real environment win: Node's loader leaves them as they are.
 */
export function loadEnvFile(file = path.resolve('.env')): void {
  if (!fs.existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (err) {
    throw new ConfigError(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function filesConfig(e: Env, dir: string): FileStorageConfig {
  if (e.FILE_STORAGE !== 's3') return { kind: e.FILE_STORAGE ?? 'auto', dir };
  const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
    (name) => !e[name],
  );
  if (missing.length > 0)
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.map((name) => `${name}: is required with FILE_STORAGE=s3`).join('\n  ')}`,
    );
  return {
    kind: 's3',
    dir,
    s3: Object.freeze({
      endpoint: e.S3_ENDPOINT!,
      bucket: e.S3_BUCKET!,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID!,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
      prefix: e.S3_PREFIX,
      pathStyle: e.S3_PATH_STYLE === 'true',
      timeoutMs: e.S3_TIMEOUT_SECONDS * 1000,
    }),
  };
}

/** Settings that are well formed but that this environment cannot start with. */
function startProblems(e: Env): string[] {
  const problems: string[] = [];
  const production = e.NODE_ENV === 'production';
  if (production && !e.ENCRYPTION_KEYS)
    problems.push(
      'ENCRYPTION_KEYS: is required in production (id:base64key, e.g. k1:$(openssl rand -base64 32))',
    );
  for (const name of ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE'] as const)
    if (production && e[name] === 'true')
      problems.push(`${name}: is a development switch and is refused in production (remove it)`);
  if (e.PADES_LEVEL && e.PADES_LEVEL !== 'B-B' && !e.TSA_URL)
    problems.push(
      `PADES_LEVEL: ${e.PADES_LEVEL} needs trusted time: set TSA_URL to an RFC 3161 time-stamping authority, or PADES_LEVEL=B-B`,
    );
  if (e.TSA_FALLBACK_URLS && !e.TSA_URL)
    problems.push('TSA_FALLBACK_URLS: are tried after TSA_URL, which is not set');
  if (e.SSO_ALLOW_PRIVATE === 'true')
    problems.push(
      'SSO_ALLOW_PRIVATE: is replaced by SSO_PRIVATE_NETWORKS, the networks the identity providers live on (e.g. SSO_PRIVATE_NETWORKS=10.1.0.0/16, or 127.0.0.0/8,::1/128 for a provider on this machine); remove SSO_ALLOW_PRIVATE',
    );
  return problems;
}

/** The PAdES level and the time-stamping authorities, in the order tried (TSA_URL first). */
function padesConfig(e: Env): Config['pades'] {
  return Object.freeze({
    level: e.PADES_LEVEL ?? (e.TSA_URL ? 'B-LT' : 'B-B'),
    tsa: e.TSA_URL
      ? Object.freeze({
          urls: Object.freeze([
            e.TSA_URL,
            ...(e.TSA_FALLBACK_URLS ?? '')
              .split(',')
              .map((u) => u.trim())
              .filter(Boolean),
          ]),
          username: e.TSA_USERNAME,
          password: e.TSA_PASSWORD,
          timeoutMs: e.TSA_TIMEOUT_SECONDS * 1000,
        })
      : null,
    revocationNetworks: Object.freeze(parseNetworks(e.REVOCATION_PRIVATE_NETWORKS ?? '').map((n) => n.text)),
  });
}

/** Reads and validates the environment once; the only place that touches process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const refused = startProblems(e);
  if (refused.length > 0) throw new ConfigError(`Invalid configuration:\n  ${refused.join('\n  ')}`);
  if (e.QUALIFIED_SIGNING_PROVIDER) {
    try {
      qualifiedProvider({
        provider: e.QUALIFIED_SIGNING_PROVIDER,
        url: e.QUALIFIED_SIGNING_URL ?? '',
        clientId: e.QUALIFIED_SIGNING_CLIENT_ID ?? '',
        clientSecret: e.QUALIFIED_SIGNING_CLIENT_SECRET ?? '',
      });
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  const outbox = path.join(dataDir, 'outbox');
  const from = e.MAIL_FROM ?? `ActionDesk <no-reply@${new URL(baseUrl).hostname}>`;
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    database: Object.freeze(
      e.DATABASE_URL
        ? {
            kind: 'server' as const,
            url: e.DATABASE_URL,
            // Behind a transaction pooler (DATABASE_MIGRATION_URL set) LISTEN needs the server itself.
            listenUrl: e.DATABASE_LISTEN_URL ?? e.DATABASE_MIGRATION_URL ?? e.DATABASE_URL,
            migrationUrl: e.DATABASE_MIGRATION_URL ?? null,
            poolSize: e.DATABASE_POOL_SIZE,
            limits: Object.freeze({
              connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
              statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
              maxWaiting: e.DATABASE_MAX_WAITING,
            }),
          }
        : { kind: 'embedded' as const, dataDir: path.join(dataDir, 'pgdata') },
    ),
    requestTimeouts: Object.freeze({
      headersMs: e.REQUEST_HEADERS_TIMEOUT_SECONDS * 1000,
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    }),
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
    retention: Object.freeze({
      jobsDays: e.RETENTION_JOBS_DAYS || null,
      eventsDays: e.RETENTION_EVENTS_DAYS || null,
      auditDays: e.RETENTION_AUDIT_DAYS || null,
      sweepMs: e.RETENTION_SWEEP_MINUTES * 60_000,
    }),
    metrics: Object.freeze({
      token: e.METRICS_TOKEN ?? null,
      port: e.METRICS_PORT ?? null,
      host: e.METRICS_HOST ?? e.HOST,
    }),
    dataDir,
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT.toLowerCase(),
    maxFileBytes: bytesOf(e.MAX_FILE_SIZE),
    signedCopyAttachMaxBytes: bytesOf(e.SIGNED_COPY_ATTACH_MAX_SIZE),
    files: Object.freeze(filesConfig(e, path.join(dataDir, 'files'))),
    authCacheTtlMs: e.AUTH_CACHE_TTL_SECONDS * 1000,
    trustProxy:
      e.TRUST_PROXY === 'true'
        ? true
        : e.TRUST_PROXY === 'false'
          ? false
          : /^\d+$/.test(e.TRUST_PROXY)
            ? Number(e.TRUST_PROXY)
            : e.TRUST_PROXY,
    mail: Object.freeze(
      e.SMTP_URL
        ? { kind: 'smtp' as const, url: e.SMTP_URL, from }
        : { kind: 'outbox' as const, dir: outbox, from },
    ),
    sms: Object.freeze(
      e.SMS_PROVIDER_URL
        ? { kind: 'http' as const, url: e.SMS_PROVIDER_URL, token: e.SMS_PROVIDER_TOKEN, from: e.SMS_FROM }
        : { kind: 'outbox' as const, dir: outbox, from: e.SMS_FROM },
    ),
    timeZone: e.TIME_ZONE,
    phoneRegion: e.PHONE_DEFAULT_REGION,
    jobs: Object.freeze({
      worker: e.JOB_WORKER === 'true',
      pollMs: e.JOB_POLL_SECONDS * 1000,
      concurrency: e.JOB_CONCURRENCY,
    }),
    encryption: Object.freeze(
      e.ENCRYPTION_KEYS
        ? { kind: 'keys' as const, keys: Object.freeze(parseEncryptionKeys(e.ENCRYPTION_KEYS)) }
        : { kind: 'file' as const, path: path.join(dataDir, 'encryption.key') },
    ),
    signing: Object.freeze(
      e.SIGNING_CERT_P12
        ? {
            kind: 'configured' as const,
            p12Path: path.resolve(e.SIGNING_CERT_P12),
            password: e.SIGNING_CERT_PASSWORD ?? '',
          }
        : { kind: 'generated' as const, commonName: `ActionDesk seal ${new URL(baseUrl).hostname}` },
    ),
    pades: padesConfig(e),
    setupTtlMs: e.SETUP_TTL_HOURS * 3_600_000,
    oauth: {
      accessTokenSeconds: e.OAUTH_ACCESS_TOKEN_SECONDS,
      refreshTokenSeconds: e.OAUTH_REFRESH_TOKEN_DAYS * 86_400,
    },
    staff: {
      idleMs: e.STAFF_IDLE_MINUTES * 60_000,
      absoluteMs: e.STAFF_SESSION_HOURS * 3_600_000,
      passwordLinkMs: e.PASSWORD_LINK_HOURS * 3_600_000,
    },
    qualifiedSigning: e.QUALIFIED_SIGNING_PROVIDER
      ? Object.freeze({
          provider: e.QUALIFIED_SIGNING_PROVIDER,
          url: e.QUALIFIED_SIGNING_URL ?? '',
          clientId: e.QUALIFIED_SIGNING_CLIENT_ID ?? '',
          clientSecret: e.QUALIFIED_SIGNING_CLIENT_SECRET ?? '',
        })
      : null,
    webhooks: Object.freeze({
      allowHttp: e.WEBHOOK_ALLOW_HTTP === 'true',
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
    }),
    rateLimits: Object.freeze({
      api: { limit: e.RATE_LIMIT_API_PER_MINUTE, windowMs: 60_000 },
      public: { limit: e.RATE_LIMIT_PUBLIC_PER_MINUTE, windowMs: 60_000 },
      signin: { limit: e.RATE_LIMIT_SIGNIN_PER_15_MINUTES, windowMs: 15 * 60_000 },
      token: { limit: e.RATE_LIMIT_TOKEN_PER_MINUTE, windowMs: 60_000 },
      wrongCodes: { limit: e.RATE_LIMIT_WRONG_CODES_PER_10_MINUTES, windowMs: 10 * 60_000 },
      newVisitors: { limit: e.RATE_LIMIT_NEW_VISITORS_PER_10_MINUTES, windowMs: 10 * 60_000 },
    }),
    sso: Object.freeze({
      privateNetworks: Object.freeze(parseNetworks(e.SSO_PRIVATE_NETWORKS ?? '').map((n) => n.text)),
      directorySyncMs: e.DIRECTORY_SYNC_MINUTES * 60_000,
    }),
  });
}
