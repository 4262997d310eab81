import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Database } from '../../src/platform/db/database';
import { openDatabase } from '../../src/platform/db/open';
import { createHttpServer } from '../../src/platform/http/listen';
import type { JobWorker } from '../../src/platform/jobs/worker';
import { ManualClock } from '../../src/platform/kernel/clock';
import { createLogger } from '../../src/platform/ops/logger';
import { createServices } from '../../src/services';
import { contractChecker, reportContract, trafficRecorder } from './contract';
import { serverDatabases } from './server-databases';

export interface Harness {
  database: Database;
  clock: ManualClock;
  server: http.Server;
  baseUrl: string;
  /** The background worker: not polling unless started; tests run due jobs with `jobs.drain()`. */
  jobs: JobWorker;
  /** DATA_DIR of this app (the outbox is DATA_DIR/outbox). */
  dataDir: string;
  /** Log lines written by the app, parsed. */
  logs: Record<string, unknown>[];
  api(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The migrated embedded image the global setup made, read once per test file. */
let image: Blob | undefined;
function embeddedImage(): Blob | undefined {
  const file = process.env.ACTIONDESK_TEST_IMAGE;
  if (!image && file) image = new Blob([fs.readFileSync(file)]);
  return image;
}

/**
 * The database tests run on: on the server at DATABASE_URL, a fresh copy of the migrated template
 * (see server-databases.ts), dropped on close; otherwise a fresh in-memory embedded PostgreSQL loaded
 * from the migrated image (see global-setup.ts).
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) return openDatabase({ kind: 'memory', image: embeddedImage() });
  const copy = await serverDatabases(url).copy();
  const database = await openDatabase({ kind: 'server', url: copy.url, poolSize: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await copy.drop();
    },
  };
}

/**
 * Tests run on a clock that stands still and from one address: the limits a feature's tests would
 * cross are raised unless a test sets them (test/rate-limits.test.ts does). The wrong-code and new
 * visitor limits keep their defaults (their tests count to them).
 */
const unlimited = {
  RATE_LIMIT_API_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGNIN_PER_15_MINUTES: '1000000',
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
};

/**
 * The contract checker of each configuration this test file's apps ran with. An app's OpenAPI document
 * is a function of its code and configuration, so apps started with the same settings serve the same
 * document: it is generated once per configuration and state of the sources (kept in
 * node_modules/.cache under the hash the global setup took of them), not once per app or file, and its
 * schemas compiled once per state of the sources (kept there too, see contract-validators.cjs).
 */
const checkers = new Map<string, ReturnType<typeof contractChecker>>();
function checkerFor(env: Record<string, string>, app: ReturnType<typeof createApp>) {
  const key = JSON.stringify(env);
  let checker = checkers.get(key);
  if (!checker) {
    const sources = process.env.ACTIONDESK_SOURCE_HASH;
    checker = contractChecker(
      documentFor(key, app),
      sources ? path.join(documents, sources, 'validators') : undefined,
    );
    checkers.set(key, checker);
  }
  return checker;
}

type ContractDocument = Parameters<typeof contractChecker>[0];
/** Where the documents are kept, one directory per state of the sources (see global-setup.ts). */
const documents = path.resolve(__dirname, '../../node_modules/.cache/actiondesk-tests/openapi');

function documentFor(settings: string, app: ReturnType<typeof createApp>): ContractDocument {
  const generate = () => (app.locals.openapiDocument as () => ContractDocument)();
  const sources = process.env.ACTIONDESK_SOURCE_HASH;
  if (!sources) return generate();
  const dir = path.join(documents, sources);
  const file = path.join(dir, `${createHash('sha256').update(settings).digest('hex').slice(0, 24)}.json`);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ContractDocument;
  } catch {
    const document = generate();
    fs.mkdirSync(dir, { recursive: true });
    // Written beside, then renamed: another worker reading it at the same time sees all of it or none.
    const temp = `${file}.${process.pid}`;
    fs.writeFileSync(temp, JSON.stringify(document));
    fs.renameSync(temp, file);
    return document;
  }
}

/** Starts the real app on port 0 over a real database, with a manual clock and captured logs. */
export async function startHarness(
  env: Record<string, string> = {},
  opts: {
    startWorker?: boolean;
    lookup?: LookupFunction;
    port?: number;
    /** Another instance on this database (the caller closes it); a fresh database by default. */
    database?: Database;
  } = {},
): Promise<Harness> {
  const database = opts.database ?? (await openTestDatabase());
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  // Files the app writes (the mail/SMS outbox) go to a directory of this test run only.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-test-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...unlimited, ...env });
  const logger = createLogger('info', sink);
  // The services as a server builds them (process figures left out of the metrics).
  const services = createServices(config, database, clock, logger, { lookup: opts.lookup });
  const worker = services.jobs;
  if (opts.startWorker) worker.start();
  const app = createApp(services, { checkResponses: true });
  // Every answer is checked against the document the app serves when the harness closes.
  const traffic = trafficRecorder();
  const server = createHttpServer(traffic.wrap(app), config.requestTimeouts);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    database,
    clock,
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    jobs: worker,
    dataDir: config.dataDir,
    logs,
    api: () => request(server),
    async close() {
      const { problems, answers, operations } = checkerFor(env, app).check(traffic.seen);
      traffic.seen.length = 0;
      reportContract({
        file: path.basename(expect.getState().testPath ?? 'unknown'),
        answers,
        operations,
        problems: problems.length,
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker.stop();
      await services.close();
      if (!opts.database) await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (problems.length > 0) {
        const shown = [...new Set(problems)];
        throw new Error(
          `${problems.length} answers broke the OpenAPI contract:\n${shown.slice(0, 30).join('\n')}${shown.length > 30 ? `\n… ${shown.length - 30} more` : ''}`,
        );
      }
    },
  };
}

/** A port free on 127.0.0.1 now: for an app whose BASE_URL must be known before it listens. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
