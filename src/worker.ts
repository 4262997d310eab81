import type { Config } from './config';
import { passwordLinkHandler, passwordLinkJob } from './modules/accounts';
import { sessionReportHandler, sessionReportJob } from './modules/respondent';
import {
  expiryHandler,
  expiryJobType,
  notificationHandler,
  notificationJob,
} from './modules/sessionrequests';
import {
  signingCodeHandler,
  signingCodeJob,
  signingFinaliseHandler,
  signingFinaliseJob,
} from './modules/signing';
import { directorySyncHandler, directorySyncJob, OidcClient } from './modules/sso';
import {
  webhookDeliveryHandler,
  webhookDeliveryJob,
  webhookDisabledNoticeHandler,
  webhookDisabledNoticeJob,
} from './modules/webhooks';
import type { Clock } from './platform/clock';
import { openSecretBox, type SecretBox } from './platform/crypto/sealed';
import type { Database } from './platform/db/database';
import { openFileStorage } from './platform/file-storage';
import { JobWorker } from './platform/jobs/worker';
import type { Logger } from './platform/logger';
import { createMailer, type Mailer } from './platform/mail';
import type { Metrics } from './platform/metrics';
import { listedNetworksPolicy, SafeHttpClient, type SafeHttpPolicy } from './platform/safe-http';
import { type SealKeySource, sealKeySource } from './platform/signing/seal-key';
import { createSmsSender, type SmsSender } from './platform/sms';
import type { FileStorage } from './platform/storage';

export interface WorkerDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  mailer?: Mailer;
  sms?: SmsSender;
  box?: SecretBox;
  /** The seal key (loaded at start by the server); by default loaded when first needed. */
  seal?: SealKeySource;
  /** Where file bytes are (by default as configured: FILE_STORAGE). */
  storage?: FileStorage;
  /** Where job and webhook outcomes are counted (the app's, in a server). */
  metrics?: Metrics;
  /** How webhook host names are resolved (tests give their own names); DNS by default. */
  lookup?: SafeHttpPolicy['lookup'];
}

/** The background worker with every module's job handlers; the caller starts it (or drains it in tests). */
export function createJobWorker(deps: WorkerDeps): {
  worker: JobWorker;
  mailer: Mailer;
  http: SafeHttpClient;
} {
  const { config, clock } = deps;
  const database = deps.metrics ? deps.metrics.timed(deps.database) : deps.database;
  const logger = deps.logger.child({ component: 'jobs' });
  const mailer = deps.mailer ?? createMailer(config.mail, logger);
  const sms = deps.sms ?? createSmsSender(config.sms, logger);
  const worker = new JobWorker(database, clock, logger, {
    pollMs: config.jobs.pollMs,
    concurrency: config.jobs.concurrency,
    batchSize: config.jobs.concurrency,
    metrics: deps.metrics,
  });
  worker.register(
    notificationJob,
    notificationHandler({
      database,
      clock,
      baseUrl: config.baseUrl,
      timeZone: config.timeZone,
      phoneRegion: config.phoneRegion,
      mailer,
      sms,
    }),
  );
  worker.register(expiryJobType, expiryHandler({ database, clock, baseUrl: config.baseUrl }));
  const box = deps.box ?? openSecretBox(config.encryption);
  const storage = deps.storage ?? openFileStorage(config.files, database);
  worker.register(
    sessionReportJob,
    sessionReportHandler({ database, clock, storage, timeZone: config.timeZone, baseUrl: config.baseUrl }),
  );
  worker.register(
    signingCodeJob,
    signingCodeHandler({ database, clock, box, mailer, sms, phoneRegion: config.phoneRegion }),
  );
  worker.register(
    signingFinaliseJob,
    signingFinaliseHandler({
      database,
      clock,
      storage,
      seal: deps.seal ?? sealKeySource({ database, box, clock }, config.signing),
      timeZone: config.timeZone,
      baseUrl: config.baseUrl,
    }),
  );
  const http = new SafeHttpClient({ ...config.webhooks, lookup: deps.lookup });
  worker.register(
    webhookDeliveryJob,
    webhookDeliveryHandler({
      database,
      clock,
      box,
      http,
      timeoutMs: config.webhooks.timeoutMs,
      metrics: deps.metrics,
    }),
  );
  worker.register(
    webhookDisabledNoticeJob,
    webhookDisabledNoticeHandler({ database, clock, mailer, baseUrl: config.baseUrl }),
  );
  const ssoPolicy = listedNetworksPolicy(config.sso.privateNetworks, deps.lookup);
  worker.register(
    directorySyncJob,
    directorySyncHandler({
      database,
      clock,
      box,
      oidc: new OidcClient(ssoPolicy, clock),
      http: new SafeHttpClient({ ...ssoPolicy, keepAlive: false }),
      intervalMs: config.sso.directorySyncMs,
    }),
  );
  worker.register(
    passwordLinkJob,
    passwordLinkHandler({ database, clock, box, mailer, baseUrl: config.baseUrl }),
  );
  return { worker, mailer, http };
}
