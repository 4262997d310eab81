import type { Config } from './config';
import { DocumentPreviews } from './modules/files';
import { adviserNotices } from './modules/sessionrequests';
import { OidcClient } from './modules/sso';
import { testInboxCapture } from './modules/testmode';
import { deliverEventsByWebhook } from './modules/webhooks';
import { openSecretBox, type SecretBox } from './platform/crypto/sealed';
import type { Database } from './platform/db/database';
import { openFileStorage } from './platform/files/file-storage';
import type { FileStorage } from './platform/files/storage';
import { readJobQueue } from './platform/jobs/jobs.repository';
import { JobWorker } from './platform/jobs/worker';
import type { Clock } from './platform/kernel/clock';
import type { Logger } from './platform/ops/logger';
import { Metrics } from './platform/ops/metrics';
import { Readiness } from './platform/ops/readiness';
import { capturingMailer, capturingSms } from './platform/outbound/capture';
import { createMailer, type Mailer } from './platform/outbound/mail';
import { listedNetworksPolicy, SafeHttpClient, type SafeHttpPolicy } from './platform/outbound/safe-http';
import { createSmsSender, type SmsSender } from './platform/outbound/sms';
import { padesProfile } from './platform/signing/profile';
import { qualifiedProvider } from './platform/signing/qualified';
import type { PadesProfile } from './platform/signing/seal';
import { type SealKeySource, sealKeySource } from './platform/signing/seal-key';
import { registerJobHandlers } from './worker';

/** What a caller may give instead of what the configuration makes (tests, mostly). */
export interface ServiceOverrides {
  mailer?: Mailer;
  /** The signing level and its authorities (tests that count or break timestamp requests). */
  pades?: PadesProfile;
  sms?: SmsSender;
  /** Seals stored secrets; by default from ENCRYPTION_KEYS (or the development key file). */
  box?: SecretBox;
  /** Where file bytes are; by default as configured (FILE_STORAGE). */
  storage?: FileStorage;
  /** The process's metrics; by default a set without the process figures (the server adds them). */
  metrics?: Metrics;
  /** How outbound host names are resolved (tests give their own names); DNS by default. */
  lookup?: SafeHttpPolicy['lookup'];
}

/**
 * Every service of one process, built once (docs/architecture.md#composition-root). Its fields carry the
 * names the modules' dependencies use, so a module takes what it needs of it: `customerRoutes(routes,
 * services)` reads `database`, `clock` and `storage`.
 */
export interface Services {
  config: Config;
  /** The database, its transactions timed for the metrics. */
  database: Database;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Set draining by the server when it begins to stop (GET /health then answers 503). */
  readiness: Readiness;
  box: SecretBox;
  storage: FileStorage;
  /** The seal key: loaded (or made) when first needed; the server asks for it before it listens. */
  seal: SealKeySource;
  /** The PAdES level seals are made at, with the timestamp authority and revocation lists it needs. */
  pades: PadesProfile;
  mailer: Mailer;
  sms: SmsSender;
  /** The background worker with every module's job handlers; started by the server (or drained in tests). */
  jobs: JobWorker;
  /** Pictures of the pages of documents to sign, shared by the contact's pages and the wizard. */
  previews: DocumentPreviews;
  /** Sign-in providers, for staff single sign-on and directory sync. */
  oidc: OidcClient;
  /** Where sign-in providers and their directories may be. */
  ssoPolicy: SafeHttpPolicy;
  /** Where webhook endpoints may be. */
  webhookPolicy: SafeHttpPolicy;
  /** The worker's client for webhook deliveries (connections kept). */
  webhookHttp: SafeHttpClient;
  // The configuration's values the modules ask for by name.
  baseUrl: string;
  timeZone: string;
  phoneRegion: Config['phoneRegion'];
  maxFileBytes: number;
  passwordLinkMs: number;
  /** Served over HTTPS: cookies are then Secure (and `__Host-` prefixed where they can be). */
  secureCookies: boolean;
  /** A qualified signing provider is registered and configured (none is built in: docs/signing.md). */
  qualifiedSigning: boolean;
  /** Epoch ms the services were built (GET /health's uptime). */
  startedAt: number;
  /** Closes what holds connections open (the mailer's pool, the webhook client); not the database. */
  close(): Promise<void>;
}

/** The one composition root: the server, the CLI and the test harness build their services here. */
export function createServices(
  config: Config,
  rawDatabase: Database,
  clock: Clock,
  logger: Logger,
  overrides: ServiceOverrides = {},
): Services {
  const metrics = overrides.metrics ?? new Metrics({ process: false });
  // Transactions timed for the metrics; the pool and the job queue read at every scrape.
  const database = metrics.timed(rawDatabase);
  metrics.watchPool(rawDatabase);
  metrics.watchQueue(() => readJobQueue(rawDatabase.db, clock.now()));
  const jobLogger = logger.child({ component: 'jobs' });
  const box = overrides.box ?? openSecretBox(config.encryption);
  const ssoPolicy = listedNetworksPolicy(config.sso.privateNetworks, overrides.lookup);
  const webhookPolicy: SafeHttpPolicy = { ...config.webhooks, lookup: overrides.lookup };
  const storage = overrides.storage ?? openFileStorage(config.files, database);
  const testInbox = testInboxCapture({ database, clock });
  const services: Services = {
    config,
    database,
    clock,
    logger,
    metrics,
    readiness: new Readiness(),
    box,
    storage,
    seal: sealKeySource({ database, box, clock }, config.signing),
    pades: overrides.pades ?? padesProfile(config.pades, () => clock.now()),
    // Every message leaves through these two: a test organisation's stop at the test inbox (issue 31).
    mailer: capturingMailer(overrides.mailer ?? createMailer(config.mail, jobLogger), testInbox, metrics),
    sms: capturingSms(overrides.sms ?? createSmsSender(config.sms, jobLogger), testInbox, metrics),
    jobs: new JobWorker(database, clock, jobLogger, {
      pollMs: config.jobs.pollMs,
      concurrency: config.jobs.concurrency,
      batchSize: config.jobs.concurrency,
      metrics,
    }),
    previews: new DocumentPreviews(database, storage, jobLogger),
    oidc: new OidcClient(ssoPolicy, clock),
    ssoPolicy,
    webhookPolicy,
    webhookHttp: new SafeHttpClient(webhookPolicy),
    baseUrl: config.baseUrl,
    timeZone: config.timeZone,
    phoneRegion: config.phoneRegion,
    maxFileBytes: config.maxFileBytes,
    passwordLinkMs: config.staff.passwordLinkMs,
    secureCookies: config.baseUrl.startsWith('https:'),
    qualifiedSigning: qualifiedProvider(config.qualifiedSigning) !== null,
    startedAt: Date.now(),
    async close() {
      services.mailer.close();
      await services.webhookHttp.close();
    },
  };
  registerJobHandlers(services);
  // Events are recorded by the platform, which cannot import the webhooks module: it is handed the fan-out.
  deliverEventsByWebhook(adviserNotices(config.timeZone));
  return services;
}
