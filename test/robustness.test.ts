import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { generateApiKey } from '../src/platform/crypto/api-keys';
import { type Database, queryRows } from '../src/platform/db/database';
import { connectServer } from '../src/platform/db/server-pool';
import { ManualClock } from '../src/platform/kernel/clock';
import { createLogger } from '../src/platform/ops/logger';
import { createServices } from '../src/services';
import { startFaultyPostgres } from './support/faulty-postgres';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { until } from './support/until';

// Any uncaught exception or unhandled rejection in this process would end a real server: count them.
const escaped: unknown[] = [];
const onEscape = (err: unknown) => escaped.push(err);
beforeAll(() => {
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterAll(() => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
});
afterEach(() => expect(escaped).toEqual([]));

/** Sends raw bytes and resolves with everything the server sent back once it closes the connection. */
function rawExchange(
  port: number,
  write: (socket: net.Socket) => void,
): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => write(socket));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

const portOf = (h: Harness) => (h.server.address() as net.AddressInfo).port;

/** The real app over `database` (no worker), on a server of its own. */
function appOver(database: Database): http.Server {
  const clock = new ManualClock('2026-03-02T09:00:00.000Z');
  const app = createApp(
    createServices(loadConfig({ NODE_ENV: 'test' }), database, clock, createLogger('silent')),
  );
  return http.createServer(app);
}

describe('inputs that used to end or hang the process', () => {
  let h: Harness;
  let org: TestOrg;
  beforeAll(async () => {
    h = await startHarness({
      REQUEST_HEADERS_TIMEOUT_SECONDS: '1',
      REQUEST_TIMEOUT_SECONDS: '2',
      FILE_STORAGE: 'disk',
    });
    org = await createOrg(h);
  });
  afterAll(() => h.close());

  const partials = () => {
    const dir = path.join(h.dataDir, 'files');
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.partial'));
  };
  const multipartHead = (length: number) =>
    'POST /api/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
    `x-api-key: ${org.adminKey}\r\ncontent-type: multipart/form-data; boundary=XyZ\r\ncontent-length: ${length}\r\n\r\n`;
  const filePart =
    '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n' +
    'x'.repeat(5000);

  it('when a multipart upload ends before its closing boundary, then 400 names the field, the service lives on and no partial file stays', async () => {
    const { text } = await rawExchange(portOf(h), (s) => s.write(multipartHead(filePart.length) + filePart));
    expect(text).toMatch(/^HTTP\/1.1 400/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ success: false, status: 400, details: [{ field: 'file', in: 'body' }] });
    await until(() => partials().length === 0);
    const after = await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey);
    expect(after.status).toBe(200);
  });

  it('when the client goes away in the middle of an upload, then its partial file is removed', async () => {
    const socket = net.connect(portOf(h), '127.0.0.1');
    await new Promise<void>((r) => socket.on('connect', r));
    socket.write(multipartHead(1_000_000) + filePart);
    await until(() => partials().length === 1);
    socket.destroy();
    await until(() => partials().length === 0);
    const health = await h.api().get('/health');
    expect(health.body.status).toBe('ok');
  });

  it('when a path segment is not valid percent-encoding, then 400 in the spec shape naming the path', async () => {
    const res = await h.api().get('/api/v1/customers/%zz').set('x-api-key', org.adminKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400, details: [{ in: 'path' }] });
    expect(res.body.error).toMatch(/percent-encoding/);
  });

  it('when JSON is nested ten thousand levels deep, then 400 names the depth limit and nothing is stored', async () => {
    const before = (await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).body.total;
    const deep = `{"data":{"Voornaam":"A","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const res = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .set('content-type', 'application/json')
      .send(deep);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested more than 32 levels deep/);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).body.total).toBe(before);
  });

  it('when a client sends its headers slowly, then the connection is closed with 408 after the bound', async () => {
    const { text, closedAfterMs } = await rawExchange(portOf(h), (s) =>
      s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
    );
    expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it('when a client sends a public form body slowly, then the connection is closed with 408 after the bound', async () => {
    const { text, closedAfterMs } = await rawExchange(portOf(h), (s) =>
      s.write(
        'POST /action/ABCD-EFGH-JKLM/submit HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'content-type: application/x-www-form-urlencoded\r\ncontent-length: 1000\r\n\r\n_csrf=',
      ),
    );
    expect(text).toMatch(/^HTTP\/1.1 408/);
    expect(closedAfterMs).toBeLessThan(6_000);
  });
});

describe('database faults answer 503 and never end the process', () => {
  const key = generateApiKey().key;

  it.each([
    ['a server that never answers the connection', 'hang-on-connect'],
    ['a backend that stops answering', 'hang-on-query'],
    ['a connection lost in the middle of a query', 'drop-on-query'],
  ] as const)(
    'when the database is %s, then API calls get 503 in the spec shape within the bounds',
    async (_what, mode) => {
      const peer = await startFaultyPostgres(mode);
      const database = await connectServer(peer.url, 2, { connectTimeoutMs: 300, statementTimeoutMs: 300 });
      const server = appOver(database);
      try {
        const started = Date.now();
        const res = await request(server).get('/api/v1/customers').set('x-api-key', key);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          success: false,
          error: expect.stringMatching(/database/i),
          status: 503,
          details: [],
          requestId: expect.any(String),
        });
        expect(res.headers['retry-after']).toBe('5');
        expect(Date.now() - started).toBeLessThan(3_000);
        const health = await request(server).get('/health');
        expect(health.status).toBe(503);
        expect(health.body.database.postgresql).toBe('disconnected');
        if (mode !== 'hang-on-connect') expect(peer.queries).toBeGreaterThan(0);
      } finally {
        await database.close().catch(() => undefined);
        await peer.close();
      }
    },
  );

  it('when the connection of a transaction in progress is lost, then the transaction fails with a database error and the process lives on', async () => {
    const peer = await startFaultyPostgres('drop-on-query');
    const database = await connectServer(peer.url, 2, { connectTimeoutMs: 300, statementTimeoutMs: 300 });
    try {
      const entry = {
        organisationId: '01900000-0000-7000-8000-000000000000',
        userId: null,
        apiKeyId: null,
        authVersion: 0,
        at: new Date(),
      };
      const batch = database.tenantBatch(entry, [sql`SELECT 1`]);
      await expect(batch).rejects.toThrow(/Connection terminated/);
      const transaction = database.tenantTransaction(entry, async () => 1);
      await expect(transaction).rejects.toThrow(/Connection terminated/);
      expect(peer.queries).toBe(2);
    } finally {
      await database.close().catch(() => undefined);
      await peer.close();
    }
  });

  it('when more callers wait for a connection than allowed, then the extra ones get 503 at once', async () => {
    const peer = await startFaultyPostgres('hang-on-connect');
    const database = await connectServer(peer.url, 1, { connectTimeoutMs: 1_000, maxWaiting: 2 });
    const server = appOver(database);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => request(server).get('/api/v1/customers').set('x-api-key', key)),
      );
      expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503, 503]);
      // One caller connects, two wait (and time out), the other three are refused without waiting.
      const busy = answers.filter((a) => /database is busy/.test(a.body.error));
      expect(busy).toHaveLength(3);
    } finally {
      await database.close().catch(() => undefined);
      await peer.close();
    }
  });
});

describe('connections lost under load', () => {
  /**
   * On a PostgreSQL server (DATABASE_URL), the app's real backends are terminated with
   * pg_terminate_backend while a burst of requests runs; on the embedded database, whose connection
   * cannot be lost, the same burst runs against a server whose every connection drops at its first query.
   */
  it('when the database connections are killed during a burst of requests, then every answer is 200 or 503, the process lives on, and the service recovers', async () => {
    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      const h = await startHarness();
      const org = await createOrg(h);
      const admin = new pg.Client({ connectionString: serverUrl });
      try {
        const [{ name } = { name: '' }] = await queryRows<{ name: string }>(
          h.database.db,
          sql`SELECT current_database() AS name`,
        );
        await admin.connect();
        const kill = () =>
          admin.query(
            // Client backends only: an autovacuum worker on the database belongs to a superuser.
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
            [name],
          );
        // 300 requests over the harness's 4 connections, while every backend is killed again and again
        // (every 10 ms, until the burst is over; bounded at 500 rounds).
        let running = true;
        const burst = Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            (i % 3 === 0
              ? h
                  .api()
                  .post('/api/v1/customers')
                  .set('x-api-key', org.adminKey)
                  .send({ data: { Voornaam: `N${i}` } })
              : h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)
            ).then((r) => r.status),
          ),
        ).finally(() => {
          running = false;
        });
        let rounds = 0;
        while (running && rounds < 500) {
          await kill();
          rounds++;
          await new Promise((r) => setTimeout(r, 10));
        }
        const statuses = await burst;
        expect(rounds).toBeGreaterThan(1);
        expect(statuses.filter((s) => s !== 200 && s !== 201 && s !== 503)).toEqual([]);
        // Recovery: the pool drops dead connections (a request that meets one first gets 503) and opens
        // new ones; within a few requests the service answers again, with no restart.
        const answers: number[] = [];
        let after = await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey);
        answers.push(after.status);
        while (after.status !== 200 && answers.length < 10) {
          after = await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey);
          answers.push(after.status);
        }
        expect(answers.at(-1)).toBe(200);
        expect(answers.filter((s) => s !== 200 && s !== 503)).toEqual([]);
        const created = statuses.filter((s) => s === 201).length;
        expect(after.body.total).toBeGreaterThanOrEqual(created);
      } finally {
        await admin.end().catch(() => undefined);
        await h.close();
      }
      return;
    }
    const peer = await startFaultyPostgres('drop-on-query');
    const database = await connectServer(peer.url, 4, { connectTimeoutMs: 500, statementTimeoutMs: 500 });
    const server = appOver(database);
    try {
      const key = generateApiKey().key;
      const statuses = await Promise.all(
        Array.from({ length: 60 }, () =>
          request(server)
            .get('/api/v1/customers')
            .set('x-api-key', key)
            .then((r) => r.status),
        ),
      );
      expect(statuses).toEqual(Array(60).fill(503));
      expect(peer.queries).toBeGreaterThan(0);
      const health = await request(server).get('/health');
      expect(health.body.database.postgresql).toBe('disconnected');
    } finally {
      await database.close().catch(() => undefined);
      await peer.close();
    }
  });
});
