// Retries: a lost or replaced answer to a POST is retried with the same Idempotency-Key and the service
// answers the first answer (one contact, not two); 429 waits its Retry-After; lost answers back off
// exponentially with jitter. Waits go through an injected sleep: the tests record them, never wait.
import { createOrg, type TestOrg } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { until } from '../../../test/support/until';
import {
  ActionDeskConnectionError,
  ActionDeskError,
  type AnswerInfo,
  type ClientOptions,
  createClient,
} from '../src/index.js';
import { type Scripted, startProxy, startScriptedServer } from './support/peers';

let h: Harness;
let org: TestOrg;
let proxy: Awaited<ReturnType<typeof startProxy>>;
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  proxy = await startProxy(h.baseUrl);
});
afterAll(async () => {
  await Promise.all(closing.map((close) => close()));
  await proxy.close();
  await h.close();
});
beforeEach(() => {
  proxy.seen.length = 0;
});

/** A client whose waits are recorded instead of waited, with the jitter pinned to half its range. */
function clientAt(baseUrl: string, options: Partial<ClientOptions> = {}) {
  const waits: number[] = [];
  const client = createClient({
    baseUrl,
    apiKey: org.adminKey,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  } as ClientOptions);
  return { client, waits };
}

async function contactsWith(thirdpartyId: string) {
  const direct = createClient({ baseUrl: h.baseUrl, apiKey: org.adminKey });
  return (await direct.customers.list({ thirdpartyId })).customers;
}

async function scripted(script: Scripted[]) {
  const server = await startScriptedServer(script);
  closing.push(server.close);
  return server;
}

describe('a POST whose answer is lost is not done twice', () => {
  it.each(['drop after forwarding', '503 after forwarding'] as const)(
    'when the service created the contact but the client got %s, then the retry is answered the same contact and only one exists',
    async (behaviour) => {
      const { client, waits } = clientAt(proxy.url);
      proxy.plan.push(behaviour);
      const answers: AnswerInfo[] = [];
      const thirdpartyId = `DUP-${behaviour.split(' ')[0]}`;

      const created = await client.customers.create(
        { thirdpartyId, data: { Voornaam: 'Once' } },
        { onAnswer: (a) => answers.push(a) },
      );

      expect(proxy.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
      const [first, retry] = proxy.seen;
      expect(first?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(retry?.idempotencyKey).toBe(first?.idempotencyKey);
      expect(answers).toEqual([expect.objectContaining({ status: 201, replayed: true, attempts: 2 })]);
      expect(waits).toHaveLength(1);
      expect(await contactsWith(thirdpartyId)).toEqual([created]);
    },
  );

  it('when the answer to an upload is lost, then the retry sends the same file and gets the same record', async () => {
    const { client } = clientAt(proxy.url);
    proxy.plan.push('drop after forwarding');
    const answers: AnswerInfo[] = [];
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );

    const file = await client.files.upload(
      { file: { data: pdf, name: 'Contract é.pdf' } },
      { onAnswer: (a) => answers.push(a) },
    );

    expect(file).toEqual(expect.objectContaining({ fileName: 'Contract é.pdf', size: pdf.length }));
    expect(answers).toEqual([expect.objectContaining({ status: 201, replayed: true, attempts: 2 })]);
    expect(proxy.seen[1]?.idempotencyKey).toBe(proxy.seen[0]?.idempotencyKey);
    expect(await client.files.get(file._id)).toEqual(file);
  });

  it('when two calls are made, then each has its own Idempotency-Key', async () => {
    const { client } = clientAt(proxy.url);
    await client.customers.create({ data: { Voornaam: 'One' } });
    await client.customers.create({ data: { Voornaam: 'Two' } });
    const [a, b] = proxy.seen;
    expect(a?.idempotencyKey).not.toBe(b?.idempotencyKey);
  });

  it('when a POST without an Idempotency-Key gets a 503, then it is not sent again', async () => {
    const { client, waits } = clientAt(proxy.url);
    proxy.plan.push('503 instead');
    const err = await client.oauth.introspect({ token: 'adt_unknown' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDeskError);
    expect(err).toEqual(expect.objectContaining({ status: 503, requestId: 'proxy-503', retryAfterMs: 1000 }));
    expect(proxy.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('when a GET gets a 503 with Retry-After: 1, then it is sent again after 1 s plus the jitter', async () => {
    const { client, waits } = clientAt(proxy.url);
    proxy.plan.push('503 instead');
    const page = await client.customers.list({ limit: 1 });
    expect(page.customers).toHaveLength(1);
    expect(proxy.seen).toHaveLength(2);
    expect(waits).toEqual([1000 + 250]);
  });
});

describe('429 and back-off', () => {
  const limited = (seconds: string): Scripted => ({
    status: 429,
    headers: { 'retry-after': seconds, 'x-request-id': 'req-429' },
    body: { success: false, error: 'Too many requests', status: 429, details: [], requestId: 'req-429' },
  });
  const ok: Scripted = { status: 200, body: { ok: true } };

  it('when the service answers 429 with Retry-After: 7, then the call waits 7 s plus the jitter, then succeeds', async () => {
    const server = await scripted([limited('7'), ok]);
    const { client, waits } = clientAt(server.url);
    expect(await client.rateLimits.get()).toEqual({ ok: true });
    expect(server.seen).toEqual(['GET /api/v1/admin/rate-limits', 'GET /api/v1/admin/rate-limits']);
    expect(waits).toEqual([7000 + 250]);
  });

  it('when 429s keep coming, then the jitter ceiling doubles, and after the last attempt the 429 is thrown', async () => {
    const server = await scripted([limited('1'), limited('1'), limited('1'), limited('1')]);
    const { client, waits } = clientAt(server.url, { retry: { maxAttempts: 4, baseDelayMs: 1000 } });
    const err = await client.rateLimits.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDeskError);
    expect(err).toEqual(expect.objectContaining({ status: 429, requestId: 'req-429', retryAfterMs: 1000 }));
    expect(server.seen).toHaveLength(4);
    expect(waits).toEqual([1000 + 500, 1000 + 1000, 1000 + 2000]);
  });

  it('when Retry-After is longer than the client waits, then the 429 is thrown at once', async () => {
    const server = await scripted([limited('600')]);
    const { client, waits } = clientAt(server.url);
    const err = (await client.rateLimits.get().catch((e: unknown) => e)) as ActionDeskError;
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(600_000);
    expect(waits).toEqual([]);
  });

  it('when connections close without an answer, then a GET backs off 50, 100, 200 ms (full jitter) and succeeds', async () => {
    const server = await scripted(['close', 'close', 'close', ok]);
    const { client, waits } = clientAt(server.url, { retry: { baseDelayMs: 100 } });
    expect(await client.rateLimits.get()).toEqual({ ok: true });
    expect(waits).toEqual([50, 100, 200]);
  });

  it('when every attempt loses its connection, then an ActionDeskConnectionError says how many were made', async () => {
    const server = await scripted(['close', 'close', 'close']);
    const { client, waits } = clientAt(server.url, { retry: { maxAttempts: 3, baseDelayMs: 100 } });
    const err = await client.rateLimits.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDeskConnectionError);
    expect(err).toEqual(expect.objectContaining({ operationId: 'getRateLimits', attempts: 3 }));
    expect(waits).toEqual([50, 100]);
  });

  it('when an attempt gets no answer within timeoutMs, then it counts as lost and is sent again', async () => {
    const server = await scripted(['hang', ok]);
    const { client, waits } = clientAt(server.url, { timeoutMs: 100 });
    expect(await client.rateLimits.get()).toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(waits).toEqual([250]);
  });

  it('when the caller aborts, then the call ends at once with the abort, not retried', async () => {
    const server = await scripted(['hang', ok]);
    const { client, waits } = clientAt(server.url);
    const abort = new AbortController();
    const call = client.rateLimits.get({ signal: abort.signal });
    await until(() => server.seen.length === 1);
    abort.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    expect(server.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('when a POST without an Idempotency-Key loses its answer, then it is not sent again', async () => {
    const server = await scripted(['close', ok]);
    const { client } = clientAt(server.url);
    const err = await client.oauth.introspect({ token: 'adt_x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDeskConnectionError);
    expect(server.seen).toHaveLength(1);
  });
});
