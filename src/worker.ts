import type { Config } from './config';
import { passwordLinkHandler, passwordLinkJob } from './modules/accounts';
import { type DocumentPreviews, filePagesHandler, filePagesJob } from './modules/files';
import { sealExpiryHandler, sealExpiryJob } from './modules/organisations';
import { sessionReportHandler, sessionReportJob } from './modules/respondent';
import {
  adviserDigestHandler,
  adviserDigestJob,
  adviserNoticeHandler,
  adviserNoticeJob,
  expiryHandler,
  expiryJobType,
  notDeliveredNotice,
  notificationHandler,
  notificationJob,
} from './modules/sessionrequests';
import {
  signedCopyHandler,
  signedCopyJob,
  signingCodeHandler,
  signingCodeJob,
  signingFinaliseHandler,
  signingFinaliseJob,
} from './modules/signing';
import { directorySyncHandler, directorySyncJob, type OidcClient } from './modules/sso';
import {
  webhookDeliveryHandler,
  webhookDeliveryJob,
  webhookDisabledNoticeHandler,
  webhookDisabledNoticeJob,
} from './modules/webhooks';
import type { SecretBox } from './platform/crypto/sealed';
import type { Database } from './platform/db/database';
import type { FileStorage } from './platform/files/storage';
import type { JobWorker } from './platform/jobs/worker';
import type { Clock } from './platform/kernel/clock';
import type { Metrics } from './platform/ops/metrics';
import type { Mailer } from './platform/outbound/mail';
import { SafeHttpClient, type SafeHttpPolicy } from './platform/outbound/safe-http';
import type { SmsSender } from './platform/outbound/sms';
import type { PadesProfile } from './platform/signing/seal';
import type { SealKeySource } from './platform/signing/seal-key';

/** What the job handlers are built from: the process's services (src/services.ts). */
export interface JobServices {
  config: Config;
  database: Database;
  clock: Clock;
  box: SecretBox;
  storage: FileStorage;
  previews: DocumentPreviews;
  seal: SealKeySource;
  pades: PadesProfile;
  mailer: Mailer;
  sms: SmsSender;
  metrics: Metrics;
  jobs: JobWorker;
  oidc: OidcClient;
  ssoPolicy: SafeHttpPolicy;
  /** The client webhook deliveries go through (closed with the services). */
  webhookHttp: SafeHttpClient;
}

/** Registers every module's job handlers with the worker; the caller starts it (or drains it in tests). */
export function registerJobHandlers(services: JobServices): void {
  const { config, database, clock, box, storage, mailer, sms, jobs: worker } = services;
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
    // The action's sender hears of an invitation or reminder that could not be delivered.
    { onGiveUp: notDeliveredNotice(config.timeZone) },
  );
  const notices = { database, clock, mailer, baseUrl: config.baseUrl };
  worker.register(adviserNoticeJob, adviserNoticeHandler(notices));
  worker.register(adviserDigestJob, adviserDigestHandler(notices));
  worker.register(filePagesJob, filePagesHandler({ database, previews: services.previews }));
  worker.register(expiryJobType, expiryHandler({ database, clock, baseUrl: config.baseUrl }));
  worker.register(
    sessionReportJob,
    sessionReportHandler({ database, clock, storage, timeZone: config.timeZone, baseUrl: config.baseUrl }),
  );
  worker.register(
    signingCodeJob,
    signingCodeHandler({
      database,
      clock,
      box,
      mailer,
      sms,
      phoneRegion: config.phoneRegion,
      baseUrl: config.baseUrl,
    }),
  );
  worker.register(
    signingFinaliseJob,
    signingFinaliseHandler({
      database,
      clock,
      storage,
      box,
      seal: services.seal,
      pades: services.pades,
      timeZone: config.timeZone,
      baseUrl: config.baseUrl,
    }),
  );
  worker.register(
    signedCopyJob,
    signedCopyHandler({
      database,
      clock,
      storage,
      mailer,
      sms,
      baseUrl: config.baseUrl,
      phoneRegion: config.phoneRegion,
      attachMaxBytes: config.signedCopyAttachMaxBytes,
    }),
  );
  worker.register(
    webhookDeliveryJob,
    webhookDeliveryHandler({
      database,
      clock,
      box,
      http: services.webhookHttp,
      timeoutMs: config.webhooks.timeoutMs,
      metrics: services.metrics,
    }),
  );
  worker.register(
    webhookDisabledNoticeJob,
    webhookDisabledNoticeHandler({ database, clock, mailer, baseUrl: config.baseUrl }),
  );
  worker.register(
    sealExpiryJob,
    sealExpiryHandler({ database, clock, mailer, baseUrl: config.baseUrl, timeZone: config.timeZone }),
  );
  worker.register(
    directorySyncJob,
    directorySyncHandler({
      database,
      clock,
      box,
      oidc: services.oidc,
      http: new SafeHttpClient({ ...services.ssoPolicy, keepAlive: false }),
      intervalMs: config.sso.directorySyncMs,
    }),
  );
  worker.register(
    passwordLinkJob,
    passwordLinkHandler({ database, clock, box, mailer, baseUrl: config.baseUrl }),
  );
}
