import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { serverDatabases } from './support/server-databases';
import { processes } from './support/spawned';
import { until } from './support/until';

// SIGTERM on the real server: what is in progress finishes (or is handed back), nothing new is taken,
// and the process exits 0.

let dir: string;
let database: { url: string; drop: () => Promise<void> } | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let run: ReturnType<typeof processes>;
let apiKey: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-shutdown-'));
  if (process.env.DATABASE_URL) database = await serverDatabases(process.env.DATABASE_URL).copy();
  receiver = await startWebhookReceiver();
  run = processes({ dataDir: dir, databaseUrl: database?.url ?? '' });
  const boot = run.cli(['bootstrap', '--org', 'Shutdown', '--email', 'a@shutdown.test', '--json']);
  expect(boot.status).toBe(0);
  apiKey = (JSON.parse(boot.stdout) as { apiKey: string }).apiKey;
});
afterAll(async () => {
  run.killAll();
  await receiver.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (base: string, method: string, url: string, body?: unknown) =>
  fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/**
 * An upload sent in two halves: the headers and first half now, the rest when `finish` is called.
 * Resolves `answer` with the raw HTTP response.
 */
function slowUpload(port: number) {
  const head =
    '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="late.pdf"\r\nContent-Type: application/pdf\r\n\r\n';
  const body = Buffer.concat([Buffer.from(head), PDF, Buffer.from('\r\n--XyZ--\r\n')]);
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => {
    text += c;
  });
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  const sent = new Promise<void>((resolve) =>
    socket.on('connect', () => {
      socket.write(
        `POST /api/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\ncontent-type: multipart/form-data; boundary=XyZ\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, 100), () => resolve());
    }),
  );
  return { sent, answer, finish: () => socket.write(body.subarray(100)) };
}

async function newWebhook(base: string) {
  const res = await call(base, 'POST', '/api/v1/webhooks', {
    url: receiver.url,
    events: ['customer.created'],
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function deliveriesOf(base: string, webhookId: string) {
  const res = await call(base, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: { eventId: string; status: string; attempts: number }[] })
    .deliveries;
}

it('when SIGTERM arrives during an upload and a webhook delivery, then both finish, new connections are refused, and the process exits 0', async () => {
  const port = await freePort();
  // The delivery hangs until the test releases it: its own time limit (10 s by default) must not end
  // it first on a machine slowed by other test files, or nothing would be in progress at SIGTERM.
  const server = await run.server(port, {
    JOB_POLL_SECONDS: '1',
    SHUTDOWN_GRACE_SECONDS: '30',
    WEBHOOK_TIMEOUT_SECONDS: '30',
  });
  const webhookId = await newWebhook(server.base);
  receiver.answer('hang');
  const before = receiver.received.length;
  expect((await call(server.base, 'POST', '/api/v1/customers', { data: { Voornaam: 'Late' } })).status).toBe(
    201,
  );
  await receiver.waitFor(before + 1);
  const upload = slowUpload(port);
  await upload.sent;

  server.child.kill('SIGTERM');
  await until(async () => server.logs.some((l) => l.msg === 'shutting down'));
  // No new connection is taken…
  await until(async () => (await fetch(`${server.base}/health`).catch(() => 'refused')) === 'refused');
  // …while the upload in progress finishes, and closes its connection.
  upload.finish();
  const answer = await upload.answer;
  expect(answer).toMatch(/^HTTP\/1.1 201 /);
  expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  const file = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { _id: string; fileName: string };
  expect(file.fileName).toBe('late.pdf');
  // The delivery in progress is answered and recorded before the process ends.
  receiver.release(200);
  expect(await server.exit).toBe(0);
  const stopped = server.logs.find((l) => l.msg === 'stopped');
  expect(stopped).toMatchObject({ reason: 'SIGTERM', jobs: { finished: 1, released: 0 } });

  const again = await run.server(port, { JOB_WORKER: 'false' });
  const [delivery] = await deliveriesOf(again.base, webhookId);
  expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
  const kept = await call(again.base, 'GET', `/api/v1/files/${file._id}`);
  expect(kept.status).toBe(200);
  expect(await kept.json()).toMatchObject({ _id: file._id, fileName: 'late.pdf', size: PDF.length });
  again.child.kill('SIGTERM');
  expect(await again.exit).toBe(0);
});

it('when a job is still running at the end of the grace period, then it is handed back and another worker delivers it, its interrupted attempt not counted', async () => {
  const port = await freePort();
  const server = await run.server(port, { JOB_POLL_SECONDS: '1', SHUTDOWN_GRACE_SECONDS: '1' });
  const webhookId = await newWebhook(server.base);
  receiver.answer('hang');
  const before = receiver.received.length;
  expect((await call(server.base, 'POST', '/api/v1/customers', { data: { Voornaam: 'Stuck' } })).status).toBe(
    201,
  );
  await receiver.waitFor(before + 1);
  const eventId = receiver.received[before]!.headers['webhook-id'];

  server.child.kill('SIGTERM');
  expect(await server.exit).toBe(0);
  const handedBack = server.logs.find(
    (l) => l.msg === 'stopping: jobs still running were handed back to the queue',
  );
  expect(handedBack).toMatchObject({ released: 1, jobs: [{ kind: 'webhook-delivery' }] });
  expect(server.logs.find((l) => l.msg === 'stopped')).toMatchObject({ jobs: { released: 1 } });

  // The next worker takes it at once (it is due now, not when a lease would have run out).
  const next = await run.server(port, { JOB_POLL_SECONDS: '1' });
  await receiver.waitFor(before + 2);
  expect(receiver.received[before + 1]!.headers['webhook-id']).toBe(eventId);
  await until(async () => (await deliveriesOf(next.base, webhookId))[0]?.status === 'succeeded', 60_000);
  next.child.kill('SIGTERM');
  expect(await next.exit).toBe(0);
});

/** Sends `count` requests, each on a connection of its own, and resolves once every one is written. */
async function inFlight(port: number, count: number, raw: string) {
  const answers: Promise<string>[] = [];
  const written: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
    });
    answers.push(
      new Promise<string>((resolve) => {
        socket.on('close', () => resolve(text));
        socket.on('error', () => undefined);
      }),
    );
    written.push(new Promise<void>((resolve) => socket.write(raw, () => resolve())));
  }
  await Promise.all(written);
  return Promise.all(answers);
}

it('when SIGTERM arrives with 40 requests in flight, then /health says draining at once, all 40 answer 200, and the process exits 0', async () => {
  const port = await freePort();
  const server = await run.server(port, { SHUTDOWN_DRAIN_SECONDS: '3', SHUTDOWN_GRACE_SECONDS: '30' });
  const raw = `GET /api/v1/customers?limit=5 HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\nConnection: close\r\n\r\n`;
  const answers = inFlight(port, 40, raw);
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const all = await answers;
  expect(all.map((a) => a.slice(0, 15))).toEqual(Array(40).fill('HTTP/1.1 200 OK'));

  // While draining, the process still takes connections: its /health tells a load balancer to go.
  const health = await fetch(`${server.base}/health`);
  expect(health.status).toBe(503);
  expect(await health.json()).toMatchObject({ status: 'draining', database: { postgresql: 'connected' } });
  const late = await fetch(`${server.base}/api/v1/customers?limit=1`, { headers: { 'x-api-key': apiKey } });
  expect(late.status).toBe(200);
  expect(late.headers.get('connection')).toBe('close');

  expect(await server.exit).toBe(0);
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(3_000);
  const order = server.logs.map((l) => l.msg);
  expect(order.indexOf('draining: /health answers 503, requests are still served')).toBeGreaterThan(-1);
  expect(order.indexOf('shutting down')).toBeGreaterThan(
    order.indexOf('draining: /health answers 503, requests are still served'),
  );
});
