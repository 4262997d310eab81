import { createServer, type Server } from 'node:http';
import { createApp } from './app';
import { type Config, ConfigError, loadConfig, loadEnvFile } from './config';
import { signInFailuresRetention } from './modules/accounts';
import { serveMetrics } from './modules/health';
import { DataDirInUseError } from './platform/db/lock';
import { openConfiguredDatabase } from './platform/db/open';
import { fileStorageKind } from './platform/files/file-storage';
import { closeConnectionsAfterAnswers, createHttpServer, drainHttpServer } from './platform/http/listen';
import { systemClock } from './platform/kernel/clock';
import { createLogger, type Logger, stdoutDestination } from './platform/ops/logger';
import { Metrics } from './platform/ops/metrics';
import { RetentionSweeper } from './platform/ops/retention';
import { padesDescription } from './platform/signing/profile';
import { SealKeyError } from './platform/signing/seal-key';
import { shownUrl } from './platform/signing/tsa';
import { createServices } from './services';

async function main(): Promise<void> {
  const config = await orExit([ConfigError], () => {
    // ./.env, when present, fills in what the real environment leaves unset.
    loadEnvFile();
    return loadConfig();
  });
  const destination = stdoutDestination();
  const logger = createLogger(config.logLevel, destination);
  installProcessHooks(logger, destination);

  const database = await orExit(
    [DataDirInUseError],
    () => openConfiguredDatabase(config, `server on port ${config.port}`),
    logger,
  );

  const services = createServices(config, database, systemClock, logger, { metrics: new Metrics() });
  const { seal, jobs: worker, metrics, readiness } = services;
  // The seal key, checked (a configured one) or made (on first start) before anything is served.
  const { certificate, source } = await orExit([SealKeyError], seal, logger);
  logger.info(
    {
      source,
      subject: certificate.subject,
      fingerprint: certificate.fingerprint,
      level: config.pades.level,
      timestampAuthorities: config.pades.tsa?.urls.map(shownUrl) ?? [],
    },
    `seal key ready; signing: ${padesDescription(config.pades)}`,
  );

  // Finished work past its retention is removed by the processes that run jobs.
  const retention = new RetentionSweeper(
    { database, clock: systemClock, logger, metrics, steps: [signInFailuresRetention] },
    config.retention,
  );
  if (config.jobs.worker) {
    worker.start();
    retention.start();
  }
  const app = createApp(services);
  const server: Server = createHttpServer(app, config.requestTimeouts);
  server.listen(config.port, config.host ?? '::', () => {
    logger.info(
      {
        port: config.port,
        baseUrl: config.baseUrl,
        database: database.driver,
        files: fileStorageKind(config.files, database),
        worker: config.jobs.worker,
      },
      `ActionDesk listening on ${config.baseUrl}`,
    );
  });

  const metricsServer = serveMetricsAlone(config, metrics, logger);

  let stopping = false;
  /** The code the process exits with: a fatal error during a stop makes it 1. */
  let exitCode = 0;
  /** Ends the drain early: a second signal, or a fatal error, while draining. */
  let endDrain: (() => void) | undefined;
  let force: NodeJS.Timeout | undefined;
  /** Exits, whatever is still in progress, `ms` from now (replacing an earlier deadline). */
  const exitBy = (ms: number) => {
    clearTimeout(force);
    force = setTimeout(() => {
      logger.fatal('shutdown did not finish in time; exiting');
      destination.flushSync();
      process.exit(exitCode || 1);
    }, ms);
    force.unref();
  };
  /**
   * The one way out, for signals and fatal errors alike. First, for `drainMs` (SIGTERM:
   * SHUTDOWN_DRAIN_SECONDS), /health answers 503 `draining` while everything that arrives is still
   * accepted and served, each answer closing its connection, so a load balancer takes this process out
   * before anything is refused. Then: stop accepting connections, let requests and jobs in progress finish
   * within SHUTDOWN_GRACE_SECONDS (jobs still running then are handed back to the queue for another
   * worker), close the database, flush the log, exit with `code`. A fatal error while a stop is under way
   * ends the drain, makes the exit code 1, and leaves what is in progress 5 s at most.
   */
  const stop = async (reason: string, code: number, graceMs = config.shutdownGraceMs, drainMs = 0) => {
    if (stopping) {
      endDrain?.();
      if (code !== 0) {
        exitCode ||= code;
        exitBy(graceMs + 5_000);
      }
      return;
    }
    stopping = true;
    exitCode = code;
    exitBy(drainMs + graceMs + 5_000);
    if (drainMs > 0) {
      readiness.drain();
      closeConnectionsAfterAnswers(server);
      logger.info({ reason, drainMs }, 'draining: /health answers 503, requests are still served');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        endDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const started = Date.now();
    const left = () => Math.max(0, graceMs - (Date.now() - started));
    logger.info({ reason, graceMs }, 'shutting down');
    try {
      metricsServer?.close();
      const [, jobs] = await Promise.all([
        drainHttpServer(server, left()),
        worker.stop(left()),
        retention.stop(),
      ]);
      await services.close();
      await database.close();
      logger.info({ reason, ms: Date.now() - started, jobs }, 'stopped');
    } catch (err) {
      logger.error({ err }, 'shutting down failed');
      exitCode ||= 1;
    }
    destination.flushSync();
    process.exit(exitCode);
  };
  // SIGTERM comes from an orchestrator, which may still route here: drain first. SIGINT is a person at a
  // terminal (Ctrl-C): stop at once; a second signal of either kind ends a drain early.
  process.on('SIGTERM', () => void stop('SIGTERM', 0, config.shutdownGraceMs, config.shutdownDrainMs));
  process.on('SIGINT', () => void stop('SIGINT', 0));
  // The process is in an unknown state: what is in progress gets 5 s at most.
  fatal = (err) =>
    void stop(`uncaught exception: ${err.message}`, 1, Math.min(5_000, config.shutdownGraceMs));
}

/**
 * Runs a start step; an error of the kinds given (a setting, a held data directory, a seal key: things a
 * person fixes) ends the process with its message instead of a stack trace.
 */
async function orExit<T>(
  expected: (abstract new (...args: never[]) => Error)[],
  step: () => T | Promise<T>,
  logger?: Logger,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!expected.some((kind) => err instanceof kind)) throw err;
    const message = (err as Error).message;
    logger?.fatal(message);
    process.stderr.write(`actiondesk: ${message}\n`);
    process.exit(1);
  }
}

/** Metrics on a port of their own (METRICS_PORT), without a token: for a network only the scraper reaches. */
function serveMetricsAlone(config: Config, metrics: Metrics, logger: Logger): Server | null {
  if (config.metrics.port === null) return null;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      serveMetrics(metrics, res).catch(() => res.destroy());
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only GET /metrics is served here\n');
  });
  server.listen(config.metrics.port, config.metrics.host ?? '::', () =>
    logger.info({ port: config.metrics.port }, 'metrics served on their own port'),
  );
  return server;
}

/** Set once the server runs: a fatal error then goes through the graceful stop. */
let fatal: ((err: Error) => void) | undefined;

function installProcessHooks(logger: Logger, destination: { flushSync(): void }): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception; exiting');
    destination.flushSync();
    if (fatal) fatal(err);
    else process.exit(1);
  });
}

main().catch((err) => {
  process.stderr.write(`actiondesk: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
