import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { ManualClock } from '../../src/platform/clock';
import { type Database, openDatabase } from '../../src/platform/db/database';
import { createLogger } from '../../src/platform/logger';

export interface Harness {
  database: Database;
  clock: ManualClock;
  server: http.Server;
  baseUrl: string;
  /** Log lines written by the app, parsed. */
  logs: Record<string, unknown>[];
  api(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The database tests run on: the server at DATABASE_URL, or a fresh in-memory embedded PostgreSQL. */
export function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  return url ? openDatabase({ kind: 'server', url, poolSize: 4 }) : openDatabase({ kind: 'memory' });
}

/** Starts the real app on port 0 over a real database, with a manual clock and captured logs. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database = await openTestDatabase();
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', ...env });
  const app = createApp({
    config,
    database,
    clock,
    logger: createLogger('info', sink),
    checkResponses: true,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    database,
    clock,
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    logs,
    api: () => request(server),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}
