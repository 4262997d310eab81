import type { Config } from './config';
import {
  expiryHandler,
  expiryJobType,
  notificationHandler,
  notificationJob,
} from './modules/sessionrequests';
import type { Clock } from './platform/clock';
import type { Database } from './platform/db/database';
import { JobWorker } from './platform/jobs/worker';
import type { Logger } from './platform/logger';
import { createMailer, type Mailer } from './platform/mail';
import { createSmsSender, type SmsSender } from './platform/sms';

export interface WorkerDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  mailer?: Mailer;
  sms?: SmsSender;
}

/** The background worker with every module's job handlers; the caller starts it (or drains it in tests). */
export function createJobWorker(deps: WorkerDeps): { worker: JobWorker; mailer: Mailer } {
  const { config, database, clock } = deps;
  const logger = deps.logger.child({ component: 'jobs' });
  const mailer = deps.mailer ?? createMailer(config.mail, logger);
  const sms = deps.sms ?? createSmsSender(config.sms, logger);
  const worker = new JobWorker(database, clock, logger, { pollMs: config.jobs.pollMs });
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
  worker.register(expiryJobType, expiryHandler({ database, clock }));
  return { worker, mailer };
}
