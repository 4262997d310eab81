import { sql } from 'drizzle-orm';
import request from 'supertest';
import { type Database, queryRows } from '../src/platform/db/database';
import { openDatabase } from '../src/platform/db/open';
import { BATCH, BATCH_MARGIN, SharedCounter } from '../src/platform/http/rate-limit';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { serverDatabases } from './support/server-databases';

/**
 * Two app instances on one database, as in production behind a load balancer: on the server each has
 * its own connection pool (DATABASE_URL); on the embedded database they share the one database.
 */
async function twoInstances(env: Record<string, string>) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const a = await startHarness(env);
    const b = await startHarness(env, { database: a.database });
    return {
      a,
      b,
      async close() {
        await b.close();
        await a.close();
      },
    };
  }
  const copy = await serverDatabases(url).copy();
  const pools: Database[] = [];
  for (let i = 0; i < 2; i++) pools.push(await openDatabase({ kind: 'server', url: copy.url, poolSize: 2 }));
  const a = await startHarness(env, { database: pools[0] });
  const b = await startHarness(env, { database: pools[1] });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
      for (const pool of pools) await pool.close();
      await copy.drop();
    },
  };
}

const policy = (name: string, q: number, w: number) =>
  new RegExp(`^"${name}"; q=${q}; w=${w}; pk=:[A-Za-z0-9+/=]+:$`);

describe('rate limits on the API (per credential, shared store)', () => {
  let h: Harness;
  let org: TestOrg;
  beforeAll(async () => {
    h = await startHarness({ RATE_LIMIT_API_PER_MINUTE: '600' });
    org = await createOrg(h);
  });
  afterAll(() => h.close());

  it('when an administrator sets 5 requests a minute, then each key gets exactly 5 answers with the RateLimit headers and the 6th is 429 with Retry-After, until the window ends', async () => {
    const before = await h.api().get('/api/v1/admin/rate-limits').set('x-api-key', org.adminKey);
    expect(before.body).toEqual({
      apiPerMinute: 600,
      organisationSetting: null,
      defaultApiPerMinute: 600,
      perAddress: {
        public: { limit: 1_000_000, windowSeconds: 60 },
        signin: { limit: 1_000_000, windowSeconds: 900 },
        token: { limit: 1_000_000, windowSeconds: 60 },
      },
    });
    const set = await h
      .api()
      .patch('/api/v1/admin/rate-limits')
      .set('x-api-key', org.adminKey)
      .send({ apiPerMinute: 5 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ apiPerMinute: 5, organisationSetting: 5, defaultApiPerMinute: 600 });

    const adviser = await createUserWithKey(h, org, ['adviser']);
    h.clock.set('2026-03-02T09:00:15.000Z');
    for (let i = 1; i <= 5; i++) {
      const res = await h.api().get('/api/v1/customers').set('x-api-key', adviser.key);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toMatch(policy('api', 5, 60));
      expect(res.headers.ratelimit).toBe(`"api"; r=${5 - i}; t=45`);
    }
    const refused = await h.api().get('/api/v1/customers').set('x-api-key', adviser.key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.headers.ratelimit).toBe('"api"; r=0; t=45');
    expect(refused.body).toEqual({
      success: false,
      error: 'Too many requests: this API key may make 5 requests a minute; retry after 45 seconds',
      status: 429,
      details: [],
      requestId: refused.headers['x-request-id'],
    });
    // A write refused by the limit changes nothing.
    const write = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', adviser.key)
      .send({ data: { firstName: 'Nobody' } });
    expect(write.status).toBe(429);
    const rows = await tenantRows(h, org.organisationId, sql`SELECT id FROM customers`);
    expect(rows).toEqual([]);

    // Another key of the organisation has its own count.
    const other = await createUserWithKey(h, org, ['adviser']);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', other.key)).status).toBe(200);

    h.clock.set('2026-03-02T09:01:00.000Z');
    const next = await h.api().get('/api/v1/customers').set('x-api-key', adviser.key);
    expect(next.status).toBe(200);
    expect(next.headers.ratelimit).toBe('"api"; r=4; t=60');
  });

  it('when an administrator changes the limit, then it is audited, and null brings the default back', async () => {
    h.clock.set('2026-03-02T10:00:00.000Z');
    const back = await h
      .api()
      .patch('/api/v1/admin/rate-limits')
      .set('x-api-key', org.adminKey)
      .send({ apiPerMinute: null });
    expect(back.body).toMatchObject({ apiPerMinute: 600, organisationSetting: null });
    const events = await h
      .api()
      .get('/api/v1/audit-events?action=organisation.updated')
      .set('x-api-key', org.adminKey);
    expect(events.body.events.map((e: { summary: unknown }) => e.summary)).toEqual([
      { apiRateLimit: { before: 5, after: null } },
      { apiRateLimit: { before: null, after: 5 } },
    ]);
    const res = await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey);
    expect(res.headers['ratelimit-policy']).toMatch(policy('api', 600, 60));
  });

  it('when the limit is out of range, not a number or set by a non-administrator, then it is refused and unchanged', async () => {
    for (const apiPerMinute of [0, -1, 1.5, 1_000_001, '60']) {
      const res = await h
        .api()
        .patch('/api/v1/admin/rate-limits')
        .set('x-api-key', org.adminKey)
        .send({ apiPerMinute });
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('apiPerMinute');
    }
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const refused = await h
      .api()
      .patch('/api/v1/admin/rate-limits')
      .set('x-api-key', adviser.key)
      .send({ apiPerMinute: 1 });
    expect(refused.status).toBe(403);
    const now = await h.api().get('/api/v1/admin/rate-limits').set('x-api-key', org.adminKey);
    expect(now.body.organisationSetting).toBeNull();
  });
});

describe('rate limits per address (sign-in, token, public)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      RATE_LIMIT_SIGNIN_PER_15_MINUTES: '3',
      RATE_LIMIT_TOKEN_PER_MINUTE: '2',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '4',
    });
  });
  afterAll(() => h.close());

  it('when an address posts the sign-in form a 4th time in 15 minutes, then it gets the 429 page with Retry-After; the page itself still opens', async () => {
    const agent = request.agent(h.server);
    const page = await agent.get('/signin');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    for (let i = 0; i < 3; i++) {
      const res = await agent
        .post('/signin')
        .type('form')
        .send({ _csrf: csrf, email: 'x@example.test', password: 'p' });
      expect(res.status).toBe(401);
      expect(res.headers['ratelimit-policy']).toMatch(policy('signin', 3, 900));
    }
    const refused = await agent
      .post('/signin')
      .type('form')
      .send({ _csrf: csrf, email: 'x@example.test', password: 'p' });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.text).toContain('Too many sign-in attempts from your address: at most 3 per 15 minutes');
    expect((await agent.get('/signin')).status).toBe(200);
  });

  it('when an address asks the token endpoint a 3rd time in a minute, then 429 in the error shape', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await h
        .api()
        .post('/api/v1/auth/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
    const refused = await h
      .api()
      .post('/api/v1/auth/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials' });
    expect(refused.status).toBe(429);
    // In the token endpoint's own RFC 6749 shape, as every answer of it (an OAuth library reads `error`).
    expect(refused.body).toEqual({
      success: false,
      error: 'temporarily_unavailable',
      error_description:
        'Too many token requests from your address: at most 2 a minute; retry after 60 seconds',
      code: 429,
      requestId: expect.any(String),
    });
    expect(refused.headers['retry-after']).toBe('60');
  });

  it('when an address sends requests with a wrong API key, then past the public limit they get 429, while a valid key from that address still works', async () => {
    h.clock.set('2026-03-02T09:20:00.000Z');
    const org = await createOrg(h);
    for (let i = 0; i < 4; i++) {
      const res = await h.api().get('/api/v1/customers').set('x-api-key', `adk_wrong${i}`);
      expect(res.status).toBe(401);
    }
    const refused = await h.api().get('/api/v1/customers').set('x-api-key', 'adk_wrong');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(
      'Too many requests without valid credentials from your address: at most 4 a minute; retry after 60 seconds',
    );
    // Once past the limit the address is refused without counting again: the shared count stays put.
    const countOf = async () =>
      (
        await queryRows<{ hits: number }>(
          h.database.db,
          sql`SELECT hits FROM rate_counters WHERE key LIKE 'unauthenticated:%' ORDER BY reset_at DESC, hits DESC LIMIT 1`,
        )
      )[0]?.hits;
    const before = await countOf();
    h.clock.advance(10_000);
    const again = await h.api().get('/api/v1/customers').set('x-api-key', 'adk_wrong');
    expect([again.status, again.headers['retry-after']]).toEqual([429, '50']);
    expect(await countOf()).toBe(before);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).status).toBe(200);
  });

  it('when an address reads the public OpenAPI document a 5th time, then 429; health is never limited', async () => {
    h.clock.set('2026-03-02T09:05:00.000Z');
    for (let i = 0; i < 4; i++) expect((await h.api().get('/api/v1/openapi.json')).status).toBe(200);
    expect((await h.api().get('/api/v1/openapi.json')).status).toBe(429);
    for (let i = 0; i < 6; i++) {
      const health = await h.api().get('/health');
      expect(health.status).toBe(200);
      expect(health.headers.ratelimit).toBeUndefined();
    }
  });
});

describe('rate limits shared by two instances on one database', () => {
  let both: Awaited<ReturnType<typeof twoInstances>>;
  let org: TestOrg;
  beforeAll(async () => {
    both = await twoInstances({ RATE_LIMIT_API_PER_MINUTE: '6', RATE_LIMIT_WRONG_CODES_PER_10_MINUTES: '4' });
    org = await createOrg(both.a);
  });
  afterAll(() => both.close());

  it('when a key alternates between the instances, then the 7th request is refused by either: they share the count', async () => {
    const adviser = await createUserWithKey(both.a, org, ['adviser']);
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 8; i++) {
      const app = i % 2 === 0 ? both.a : both.b;
      const res = await app.api().get('/api/v1/customers').set('x-api-key', adviser.key);
      statuses.push(res.status);
      remaining.push(String(res.headers.ratelimit));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect(remaining.slice(0, 6)).toEqual([5, 4, 3, 2, 1, 0].map((r) => `"api"; r=${r}; t=60`));
  });

  it('when 20 requests of one key arrive at once on both instances, then exactly 6 are answered and 14 refused', async () => {
    both.a.clock.set('2026-03-02T09:10:00.000Z');
    both.b.clock.set('2026-03-02T09:10:00.000Z');
    const adviser = await createUserWithKey(both.a, org, ['adviser']);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? both.a : both.b)
          .api()
          .get('/api/v1/customers')
          .set('x-api-key', adviser.key)
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(14);
  });

  it('when unknown action codes are tried on both instances, then the wrong-code limit counts them together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? both.a : both.b;
      statuses.push((await app.api().get(`/action/${'z'.repeat(19)}${i}`)).status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });
});

describe('counts far from the limit are written in batches', () => {
  let both: Awaited<ReturnType<typeof twoInstances>>;
  const sweep = async () => {};
  const rule = { limit: 200, windowMs: 60_000 };
  beforeAll(async () => {
    both = await twoInstances({ RATE_LIMIT_API_PER_MINUTE: '100' });
  });
  afterAll(() => both.close());

  const written = async (key: string) =>
    (
      await queryRows<{ hits: number }>(
        both.a.database.db,
        sql`SELECT hits FROM rate_counters WHERE key = ${key}`,
      )
    )[0]?.hits;

  it(`when one instance counts hits far from the limit, then it answers each count exactly and writes one in ${BATCH}`, async () => {
    const counter = new SharedCounter(
      { database: both.a.database, clock: both.a.clock, sweep },
      'batch',
      rule,
    );
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) answers.push((await counter.hit('one')).hits);
    expect(answers).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // The 1st hit is written alone (nothing was known of the window); then the 11th and 21st carry 10 each.
    expect(await written('batch:one')).toBe(21);
  });

  it('when a client nears the limit, then every hit is written and the limit is exact for one instance', async () => {
    const counter = new SharedCounter(
      { database: both.a.database, clock: both.a.clock, sweep },
      'near',
      rule,
    );
    const answers: number[] = [];
    for (let i = 0; i < rule.limit + 5; i++) answers.push((await counter.hit('one')).hits);
    expect(answers).toEqual(Array.from({ length: rule.limit + 5 }, (_, i) => i + 1));
    expect(answers.filter((n) => n <= rule.limit)).toHaveLength(rule.limit);
    // From the margin on, the shared count has every hit.
    expect(await written('near:one')).toBe(rule.limit + 5);
    expect(rule.limit - BATCH_MARGIN).toBeGreaterThan(BATCH);
  });

  it('when the window ends, then the hits still in memory are not counted in the next one', async () => {
    const clock = both.a.clock;
    clock.set('2026-03-02T10:00:10.000Z');
    const counter = new SharedCounter({ database: both.a.database, clock, sweep }, 'window', rule);
    for (let i = 0; i < 15; i++) await counter.hit('one');
    clock.set('2026-03-02T10:01:00.000Z');
    expect(await counter.hit('one')).toEqual({ hits: 1, resetAt: new Date('2026-03-02T10:02:00.000Z') });
    expect(await written('window:one')).toBe(1);
  });

  it('when two instances count one client at once, then they let through at least the limit and at most limit + 2 × (2 × BATCH − 1)', async () => {
    const counters = [both.a, both.b].map(
      (h) => new SharedCounter({ database: h.database, clock: both.a.clock, sweep }, 'pair', rule),
    );
    both.a.clock.set('2026-03-02T11:00:00.000Z');
    // 4 rounds of 100 concurrent hits, half on each instance.
    const answers: number[] = [];
    for (let round = 0; round < 4; round++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, i) => counters[i % 2]!.hit('client').then((r) => r.hits)),
        )),
      );
    const admitted = answers.filter((n) => n <= rule.limit).length;
    expect(admitted).toBeGreaterThanOrEqual(rule.limit);
    expect(admitted).toBeLessThanOrEqual(rule.limit + 2 * (2 * BATCH - 1));
    // Past the margin every hit is written: the shared count has all 400.
    expect(await written('pair:client')).toBe(400);
  });

  it('when 150 requests of one key arrive at once on both instances with a limit of 100, then at least 100 and at most the bound are answered', async () => {
    both.a.clock.set('2026-03-02T12:00:00.000Z');
    both.b.clock.set('2026-03-02T12:00:00.000Z');
    const org = await createOrg(both.a);
    const adviser = await createUserWithKey(both.a, org, ['adviser']);
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        (i % 2 === 0 ? both.a : both.b)
          .api()
          .get('/api/v1/questionlists')
          .set('x-api-key', adviser.key)
          .then((r) => r.status),
      ),
    );
    const answered = statuses.filter((s) => s === 200).length;
    expect(answered).toBeGreaterThanOrEqual(100);
    expect(answered).toBeLessThanOrEqual(100 + 2 * (2 * BATCH - 1));
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  });
});
