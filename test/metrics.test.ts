import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createContact,
  createInvitedAction,
  createOrg,
  createTemplate,
  createWebhook,
  type TestOrg,
} from './support/fixtures';
import { freePort, type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { serverDatabases } from './support/server-databases';
import { processes } from './support/spawned';

// /metrics scraped as Prometheus would; its text checked by Prometheus's own linter (promtool, from
// Debian's prometheus package) and read by the small reader below.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of the Prometheus text format (comments left out). */
function samplesOf(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const TOKEN = 'scrape-token-0123456789abcdef';
let h: Harness;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await startHarness({
    METRICS_TOKEN: TOKEN,
    RATE_LIMIT_PUBLIC_PER_MINUTE: '3',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  org = await createOrg(h);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

async function scrape(): Promise<Sample[]> {
  const res = await h.api().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers['cache-control']).toBe('no-store');
  const lint = spawnSync('promtool', ['check', 'metrics'], { input: res.text, encoding: 'utf8' });
  expect({ status: lint.status, problems: `${lint.stdout}${lint.stderr}`.trim() }).toEqual({
    status: 0,
    problems: '',
  });
  return samplesOf(res.text);
}

/** The value of the sample named `name` whose labels include `labels`. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const match = samples.find(
    (m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels[k] === v),
  );
  expect({ name, labels, found: match !== undefined }).toEqual({ name, labels, found: true });
  return match!.value;
}

describe('GET /metrics', () => {
  it('when requests, jobs, webhook deliveries and rate-limit refusals happen, then each has its series', async () => {
    // Requests: a create, a 404, three refusals of a wrong key then a 429.
    const contact = await createContact(h, org, { Voornaam: 'Mila', Email: 'mila@example.test' });
    expect(
      (
        await h
          .api()
          .get('/api/v1/customers/01900000-0000-7000-8000-000000000000')
          .set('x-api-key', org.adminKey)
      ).status,
    ).toBe(404);
    const wrong = [];
    for (let i = 0; i < 4; i++)
      wrong.push((await h.api().get('/api/v1/customers').set('x-api-key', 'adk_wrong')).status);
    expect(wrong).toEqual([401, 401, 401, 429]);

    // Jobs: an invitation and two webhook deliveries, one answered 500 (retried later).
    await createWebhook(h, org, receiver.url, ['customer.created']);
    receiver.answer({ status: 500 });
    await createContact(h, org, { Voornaam: 'Bo' });
    await createContact(h, org, { Voornaam: 'Ida' });
    const template = await createTemplate(h, org);
    await createInvitedAction(h, org, contact, template);

    // Before the worker runs: the queue holds them, due, the oldest waiting as long as the clock moved.
    h.clock.advance(90_000);
    const queued = await scrape();
    expect(value(queued, 'actiondesk_jobs', { kind: 'notification', state: 'due' })).toBe(1);
    expect(value(queued, 'actiondesk_jobs', { kind: 'webhook-delivery', state: 'due' })).toBe(2);
    expect(
      value(queued, 'actiondesk_jobs_oldest_due_age_seconds', { kind: 'webhook-delivery' }),
    ).toBeGreaterThanOrEqual(90);

    await h.jobs.drain();
    const after = await scrape();
    expect(receiver.received).toHaveLength(2);

    const requests = (labels: Record<string, string>) =>
      value(after, 'actiondesk_http_requests_total', labels);
    expect(requests({ method: 'POST', route: '/api/v1/customers', status: '201', mode: 'live' })).toBe(3);
    expect(requests({ method: 'GET', route: '/api/v1/customers', status: '401', mode: 'none' })).toBe(3);
    expect(value(after, 'actiondesk_messages_total', { channel: 'email', mode: 'live' })).toBe(1);
    expect(requests({ method: 'GET', route: '/api/v1/customers/{customerId}', status: '404' })).toBe(1);
    const created = { method: 'POST', route: '/api/v1/sessionrequests', status: '201' };
    expect(value(after, 'actiondesk_http_request_duration_seconds_count', created)).toBe(1);
    expect(value(after, 'actiondesk_http_request_duration_seconds_sum', created)).toBeGreaterThan(0);
    expect(value(after, 'actiondesk_http_request_duration_seconds_bucket', { ...created, le: '+Inf' })).toBe(
      1,
    );
    expect(value(after, 'actiondesk_rate_limit_refusals_total', { route: '/api/v1/customers' })).toBe(1);

    const transactions = { kind: 'transaction', outcome: 'ok' };
    expect(value(after, 'actiondesk_db_transaction_duration_seconds_count', transactions)).toBeGreaterThan(0);
    expect(value(after, 'actiondesk_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);

    const outcomes = (labels: Record<string, string>) =>
      value(after, 'actiondesk_job_outcomes_total', labels);
    expect(outcomes({ kind: 'notification', outcome: 'done' })).toBe(1);
    expect(outcomes({ kind: 'webhook-delivery', outcome: 'done' })).toBe(1);
    expect(outcomes({ kind: 'webhook-delivery', outcome: 'retry' })).toBe(1);
    expect(value(after, 'actiondesk_job_duration_seconds_count', { kind: 'notification' })).toBe(1);
    const attempts = (labels: Record<string, string>) =>
      value(after, 'actiondesk_webhook_attempts_total', labels);
    expect(attempts({ outcome: 'succeeded', status_class: '2xx', mode: 'live' })).toBe(1);
    expect(attempts({ outcome: 'retry', status_class: '5xx' })).toBe(1);
    expect(value(after, 'actiondesk_webhook_attempt_duration_seconds_count')).toBe(2);

    // The retried delivery waits, scheduled; nothing is due any more.
    expect(value(after, 'actiondesk_jobs', { kind: 'webhook-delivery', state: 'scheduled' })).toBe(1);
    expect(after.filter((m) => m.name === 'actiondesk_jobs' && m.labels.state === 'due')).toEqual([]);
  });

  it('when a test key works, then its requests, messages and webhook attempts are counted apart as mode test', async () => {
    const made = await h
      .api()
      .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'Sandbox', mode: 'test' });
    const testOrg = { ...org, adminKey: made.body.apiKey as string };
    const before = await scrape();
    const count = (samples: Sample[], name: string, labels: Record<string, string>) =>
      samples.find((m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels[k] === v))
        ?.value ?? 0;
    const created = { method: 'POST', route: '/api/v1/customers', status: '201' };
    receiver.answer({ status: 200 });
    await createWebhook(h, testOrg, receiver.url, ['customer.created']);
    const contact = await createContact(h, testOrg, { Voornaam: 'Sandra', Email: 'sandra@example.test' });
    await createInvitedAction(h, testOrg, contact, await createTemplate(h, testOrg));
    await h.jobs.drain();
    const after = await scrape();
    const grew = (name: string, labels: Record<string, string>) =>
      count(after, name, labels) - count(before, name, labels);
    expect({
      testCreates: grew('actiondesk_http_requests_total', { ...created, mode: 'test' }),
      liveCreates: grew('actiondesk_http_requests_total', { ...created, mode: 'live' }),
      testMails: grew('actiondesk_messages_total', { channel: 'email', mode: 'test' }),
      liveMails: grew('actiondesk_messages_total', { channel: 'email', mode: 'live' }),
      testAttempts: grew('actiondesk_webhook_attempts_total', { outcome: 'succeeded', mode: 'test' }),
      liveAttempts: grew('actiondesk_webhook_attempts_total', { outcome: 'succeeded', mode: 'live' }),
    }).toEqual({
      testCreates: 1,
      liveCreates: 0,
      testMails: 1,
      liveMails: 0,
      testAttempts: 1,
      liveAttempts: 0,
    });
  });

  it('when the token is missing or wrong, then 401 in the spec shape and no metrics', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`]) {
      const req = h.api().get('/metrics');
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: 'Missing or wrong metrics token',
        code: 401,
        details: [],
        requestId: expect.any(String),
      });
      expect(res.text).not.toContain('actiondesk_');
    }
  });

  it('when no METRICS_TOKEN is configured, then /metrics is 404 naming how to turn it on', async () => {
    const plain = await startHarness({}, { database: h.database });
    try {
      const res = await plain.api().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        success: false,
        status: 404,
        error: 'Metrics are not served here: set METRICS_TOKEN, or scrape METRICS_PORT',
      });
    } finally {
      await plain.close();
    }
  });
});

describe('request ids in the logs', () => {
  it('when a request queues a job, then every line the job writes carries the request’s id', async () => {
    await createWebhook(h, org, receiver.url, ['customer.updated']);
    const contact = await createContact(h, org, { Voornaam: 'Traced' });
    await h.jobs.drain();
    receiver.answer({ status: 503 });
    const update = await h
      .api()
      .patch(`/api/v1/customers/${contact}`)
      .set('x-api-key', org.adminKey)
      .set('X-Request-Id', 'trace-me-0001')
      .send({ data: { Voornaam: 'Traced again' } });
    expect(update.status).toBe(200);
    await h.jobs.drain();
    const retried = h.logs.filter((l) => l.msg === 'job failed; will retry' && l.kind === 'webhook-delivery');
    expect(retried.at(-1)).toMatchObject({
      requestId: 'trace-me-0001',
      jobId: expect.any(String),
      attempt: 1,
    });
    // The request's own line carries it too.
    expect(h.logs.some((l) => (l.req as { id?: string } | undefined)?.id === 'trace-me-0001')).toBe(true);
  });
});

describe('METRICS_PORT', () => {
  it('when the server runs with METRICS_PORT, then the metrics are served there without a token, the process’s own figures included', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-metrics-'));
    const database = process.env.DATABASE_URL
      ? await serverDatabases(process.env.DATABASE_URL).copy()
      : undefined;
    const run = processes({ dataDir, databaseUrl: database?.url ?? '' });
    try {
      const [port, metricsPort] = [await freePort(), await freePort()];
      const server = await run.server(port, { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
      expect((await fetch(`${server.base}/health`)).status).toBe(200);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
      const samples = samplesOf(text);
      // The health checks made while it started are counted.
      expect(
        value(samples, 'actiondesk_http_requests_total', { route: '/health', status: '200' }),
      ).toBeGreaterThanOrEqual(2);
      expect(value(samples, 'actiondesk_process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(value(samples, 'actiondesk_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      // Nothing else is served on that port, and the API's own port still wants the token.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/customers`)).status).toBe(404);
      expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    } finally {
      run.killAll();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
