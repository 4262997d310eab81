import { createContact, createOrg, createTemplate, type TestOrg, untilSettled } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let hook: string;
let client: string;
const userIds: string[] = [];
const START = '2026-05-01T08:00:00.000Z';

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  org = await createOrg(h, 'Kantoor Lijsten');
  h.clock.set(START);
  const post = async (path: string, body: object) => {
    h.clock.advance(1_000);
    const res = await h.api().post(path).set('x-api-key', org.adminKey).send(body);
    expect([path, res.status, res.body.error]).toEqual([path, 201, undefined]);
    return res.body as { _id: string };
  };
  for (let i = 0; i < 3; i++) {
    const user = await post('/api/v1/admin/users', {
      email: `lijst${i}@example.test`,
      name: `Lijst ${i}`,
      groups: ['adviser'],
    });
    userIds.push(user._id);
    await post(`/api/v1/admin/users/${user._id}/apikeys`, { name: `Sleutel ${i}` });
    await post('/api/v1/portfolios', { name: `Boek ${i}` });
    const made = await post('/api/v1/webhooks', {
      url: `http://127.0.0.1:9/hook-${i}`,
      events: ['customer.created'],
    });
    hook ??= made._id;
    const app = await post('/api/v1/admin/oauth/clients', {
      name: `Partner ${i}`,
      type: 'public',
      grants: ['authorization_code', 'refresh_token'],
      scopes: ['read'],
      redirectUris: ['http://127.0.0.1:9/callback'],
    });
    client ??= app._id;
    await createTemplate(h, org, { name: `Vragenlijst ${i}` });
  }
  for (let i = 0; i < 3; i++) {
    h.clock.advance(1_000);
    await createContact(h, org, { Voornaam: `Levering ${i}` });
  }
});
afterAll(() => h.close());

type Item = { _id: string; createdAt: string };
interface Answer {
  total: number;
  totalIsEstimate: boolean;
  hasMore: boolean;
  nextCursor: string | null;
  [items: string]: unknown;
}

const lists = () => [
  {
    path: '/api/v1/admin/users',
    items: 'users',
    change: (id: string) => ['patch', `/api/v1/admin/users/${id}`, { name: 'Nieuw' }] as const,
  },
  { path: '/api/v1/admin/apikeys', items: 'apiKeys' },
  { path: '/api/v1/admin/oauth/clients', items: 'clients' },
  { path: '/api/v1/admin/sso/providers', items: 'providers' },
  {
    path: '/api/v1/webhooks',
    items: 'webhooks',
    change: (id: string) => ['patch', `/api/v1/webhooks/${id}`, { description: 'Nieuw' }] as const,
  },
  { path: '/api/v1/portfolios', items: 'portfolios' },
  { path: `/api/v1/webhooks/${hook}/deliveries`, items: 'deliveries' },
  { path: `/api/v1/admin/oauth/clients/${client}/tokens`, items: 'tokens' },
];

const get = async (path: string, query: string): Promise<Answer> => {
  const res = await h.api().get(`${path}?${query}`).set('x-api-key', org.adminKey);
  expect([path, query, res.status, res.body.error]).toEqual([path, query, 200, undefined]);
  return res.body;
};

/** Every item of a walk that starts with `first` and goes on by cursor, two a page. */
async function walk(path: string, items: string, first: string, filters = '') {
  const seen: Item[] = [];
  let page = await get(path, first);
  seen.push(...(page[items] as Item[]));
  while (page.hasMore) {
    page = await get(path, `limit=2${filters}&startingAfter=${page.nextCursor}`);
    seen.push(...(page[items] as Item[]));
  }
  return { seen, cursor: page.nextCursor };
}

describe('every list pages by cursor and syncs with updatedSince', () => {
  it('when a list is walked by cursor two at a time, then it returns what the whole list holds, each once, newest first', async () => {
    for (const { path, items } of lists()) {
      const whole = await get(path, '');
      const everything = (whole[items] as Item[]).map((i) => i._id);
      const { seen } = await walk(path, items, 'limit=2');
      const ids = seen.map((i) => i._id);
      expect([path, [...ids].sort()]).toEqual([path, [...everything].sort()]);
      expect([path, new Set(ids).size]).toEqual([path, ids.length]);
      const times = seen.map((i) => i.createdAt);
      expect([path, times]).toEqual([path, [...times].sort().reverse()]);
      if (!['providers', 'tokens'].includes(items)) expect([path, ids.length >= 3]).toEqual([path, true]);
    }
  });

  it('when a list is synced with updatedSince, then each record comes once, and a record changed later comes again from the kept cursor', async () => {
    await untilSettled(h, org.organisationId);
    for (const { path, items, change } of lists()) {
      const { seen, cursor } = await walk(path, items, `limit=2&updatedSince=${START}`);
      const ids = seen.map((i) => i._id);
      expect([path, new Set(ids).size]).toEqual([path, ids.length]);
      if (!change) continue;
      const target = ids[0]!;
      const [method, url, body] = change(target);
      h.clock.advance(1_000);
      expect((await h.api()[method](url).set('x-api-key', org.adminKey).send(body)).status).toBe(200);
      await untilSettled(h, org.organisationId);
      const again = await get(path, `limit=2&startingAfter=${cursor}`);
      expect([path, (again[items] as Item[]).map((i) => i._id)]).toEqual([path, [target]]);
    }
  });

  it('when a list answers a bare array (templates), then the cursor comes in the headers', async () => {
    const first = await h.api().get('/api/v1/questionlists?limit=2').set('x-api-key', org.adminKey);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    expect(first.headers['has-more']).toBe('true');
    const cursor = first.headers['next-cursor'] as string;
    expect(first.headers.link).toBe(`</api/v1/questionlists?limit=2&startingAfter=${cursor}>; rel="next"`);
    const seen = first.body.map((t: Item) => t._id);
    let next = cursor;
    for (;;) {
      const res = await h
        .api()
        .get(`/api/v1/questionlists?limit=2&startingAfter=${next}`)
        .set('x-api-key', org.adminKey);
      seen.push(...res.body.map((t: Item) => t._id));
      if (res.headers['has-more'] !== 'true') break;
      next = res.headers['next-cursor'] as string;
    }
    const whole = await h.api().get('/api/v1/questionlists').set('x-api-key', org.adminKey);
    expect(whole.headers['has-more']).toBeUndefined();
    expect([...seen].sort()).toEqual(whole.body.map((t: Item) => t._id).sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('when a cursor of one list is given to another, or with other filters, then 400 names startingAfter', async () => {
    const users = await get('/api/v1/admin/users', 'limit=1');
    const keys = await get('/api/v1/admin/apikeys', 'limit=1');
    for (const [path, query] of [
      ['/api/v1/portfolios', `startingAfter=${users.nextCursor}`],
      ['/api/v1/admin/apikeys', `includeRevoked=true&startingAfter=${keys.nextCursor}`],
    ] as const) {
      const res = await h.api().get(`${path}?${query}`).set('x-api-key', org.adminKey);
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ field: 'startingAfter', in: 'query' });
    }
  });

  it('when the events and the audit trail are read with the common names startingAfter and updatedSince, then they answer as with cursor and since', async () => {
    await untilSettled(h, org.organisationId);
    const first = await h.api().get('/api/v1/events?limit=2').set('x-api-key', org.adminKey);
    const cursor = first.body.nextCursor as string;
    const byCursor = await h
      .api()
      .get(`/api/v1/events?limit=5&cursor=${cursor}`)
      .set('x-api-key', org.adminKey);
    const byCommon = await h
      .api()
      .get(`/api/v1/events?limit=5&startingAfter=${cursor}&updatedSince=2000-01-01T00:00:00Z`)
      .set('x-api-key', org.adminKey);
    expect(byCommon.body.events.map((e: { id: string }) => e.id)).toEqual(
      byCursor.body.events.map((e: { id: string }) => e.id),
    );
    expect(byCommon.body.events.length).toBeGreaterThan(0);
    const clash = await h
      .api()
      .get(`/api/v1/events?cursor=${cursor}&startingAfter=${first.body.nextCursor}x`)
      .set('x-api-key', org.adminKey);
    expect(clash.status).toBe(400);
    expect(clash.body.details[0]).toMatchObject({ field: 'startingAfter', in: 'query' });
    const since = `${START}`;
    const audit = await h
      .api()
      .get(`/api/v1/audit-events?since=${since}&limit=100`)
      .set('x-api-key', org.adminKey);
    const auditCommon = await h
      .api()
      .get(`/api/v1/audit-events?updatedSince=${since}&limit=100`)
      .set('x-api-key', org.adminKey);
    expect(auditCommon.body.events.map((e: { _id: string }) => e._id)).toEqual(
      audit.body.events.map((e: { _id: string }) => e._id),
    );
    expect(audit.body.events.length).toBeGreaterThan(10);
  });

  it('when a key is only used, or a portfolio only gains contacts, then a sync does not list it again', async () => {
    const user = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', org.adminKey)
      .send({ email: 'gebruik@example.test', name: 'Gebruik', kind: 'service', groups: ['adviser'] });
    const key = await h
      .api()
      .post(`/api/v1/admin/users/${user.body._id}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'In gebruik' });
    expect(key.status).toBe(201);
    await untilSettled(h, org.organisationId);
    const keys = await walk(
      '/api/v1/admin/apikeys',
      'apiKeys',
      `limit=2&includeRevoked=true&updatedSince=${START}`,
      '&includeRevoked=true',
    );
    const books = await walk('/api/v1/portfolios', 'portfolios', `limit=2&updatedSince=${START}`);
    h.clock.advance(120_000);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', key.body.apiKey)).status).toBe(200);
    await createContact(h, org, { Voornaam: 'In een boek' });
    await untilSettled(h, org.organisationId);
    const keysAgain = await get(
      '/api/v1/admin/apikeys',
      `limit=2&includeRevoked=true&startingAfter=${keys.cursor}`,
    );
    expect(keysAgain.apiKeys).toEqual([]);
    const booksAgain = await get('/api/v1/portfolios', `limit=2&startingAfter=${books.cursor}`);
    expect(booksAgain.portfolios).toEqual([]);
    // A revocation is a change.
    expect(
      (
        await h
          .api()
          .delete(`/api/v1/admin/users/${user.body._id}/apikeys/${key.body._id}`)
          .set('x-api-key', org.adminKey)
      ).status,
    ).toBe(200);
    await untilSettled(h, org.organisationId);
    const revoked = await get(
      '/api/v1/admin/apikeys',
      `limit=2&includeRevoked=true&startingAfter=${keys.cursor}`,
    );
    expect((revoked.apiKeys as Item[]).map((k) => k._id)).toEqual([key.body._id]);
  });

  it('when a deliveries cursor is used with another status filter, then 400; the walk keeps the events of one request newest first', async () => {
    const first = await get(`/api/v1/webhooks/${hook}/deliveries`, 'limit=1&status=pending');
    const res = await h
      .api()
      .get(`/api/v1/webhooks/${hook}/deliveries?limit=1&startingAfter=${first.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: 'startingAfter' });
    const byPage = (await get(`/api/v1/webhooks/${hook}/deliveries`, 'limit=100')).deliveries as Item[];
    const { seen } = await walk(`/api/v1/webhooks/${hook}/deliveries`, 'deliveries', 'limit=2');
    expect(seen.map((d) => d._id)).toEqual(byPage.map((d) => d._id));
  });
});
