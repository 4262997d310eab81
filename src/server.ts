import type { Server } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig, loadEnvFile } from './config';
import { systemClock } from './platform/clock';
import { openSecretBox } from './platform/crypto/sealed';
import type { Database } from './platform/db/database';
import { DataDirInUseError } from './platform/db/lock';
import { openConfiguredDatabase } from './platform/db/open';
import { createHttpServer } from './platform/http/listen';
import { createLogger, type Logger, stdoutDestination } from './platform/logger';
import { SealKeyError, sealKeySource } from './platform/signing/seal-key';
import { createJobWorker } from './worker';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    // ./.env, when present, fills in what the real environment leaves unset.
    loadEnvFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`actiondesk: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const destination = stdoutDestination();
  const logger = createLogger(config.logLevel, destination);
  installProcessHooks(logger, destination);

  let database: Database;
  try {
    database = await openConfiguredDatabase(config, `server on port ${config.port}`);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      logger.fatal(err.message);
      process.stderr.write(`actiondesk: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  // One secret box for the seal key, the API and the worker (the key file is read once).
  const box = openSecretBox(config.encryption);
  // The seal key, checked (a configured one) or made (on first start) before anything is served.
  const seal = sealKeySource({ database, box, clock: systemClock }, config.signing);
  try {
    const { certificate, source } = await seal();
    logger.info(
      { source, subject: certificate.subject, fingerprint: certificate.fingerprint },
      'seal key ready',
    );
  } catch (err) {
    if (err instanceof SealKeyError) {
      logger.fatal(err.message);
      process.stderr.write(`actiondesk: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const { worker, mailer, http } = createJobWorker({
    config,
    database,
    clock: systemClock,
    logger,
    box,
    seal,
  });
  if (config.jobs.worker) worker.start();
  const app = createApp({ config, database, clock: systemClock, logger, jobs: worker, box, seal });
  const server: Server = createHttpServer(app, config.requestTimeouts);
  server.listen(config.port, config.host ?? '::', () => {
    logger.info(
      { port: config.port, baseUrl: config.baseUrl, database: database.driver },
      `ActionDesk listening on ${config.baseUrl}`,
    );
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(() => {
      worker
        .stop()
        .then(() => mailer.close())
        .then(() => http.close())
        .then(() => database.close())
        .catch((err) => logger.error({ err }, 'closing the database failed'))
        .finally(() => {
          destination.flushSync();
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function installProcessHooks(logger: Logger, destination: { flushSync(): void }): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception; exiting');
    destination.flushSync();
    process.exit(1);
  });
}

main().catch((err) => {
  process.stderr.write(`actiondesk: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
