// The client against the real service (in-process, embedded database): typed calls, lists walked by
// cursor, syncs resumed from their cursor, and refusals as ActionDeskErrors.
import { createOrg, type TestOrg, unknownId, untilSettled } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { type ActionDeskClient, ActionDeskError, type AnswerInfo, createClient } from '../src/index.js';

let h: Harness;
let org: TestOrg;
let client: ActionDeskClient;
/** The requests the client sent, as `METHOD path?query`. */
const sent: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  client = createClient({
    baseUrl: h.baseUrl,
    apiKey: org.adminKey,
    fetch: (input, init) => {
      const url = new URL(String(input));
      sent.push(`${init?.method} ${url.pathname}${url.search}`);
      return fetch(input, init);
    },
  });
});
afterAll(() => h.close());
beforeEach(() => {
  sent.length = 0;
});

describe('typed calls', () => {
  it('when a contact is created and read back, then both answers are the stored contact', async () => {
    const created = await client.customers.create({
      thirdpartyId: 'CRM-1',
      data: { Voornaam: 'Marie', Email: 'marie@example.test' },
    });
    expect(created).toEqual(
      expect.objectContaining({ _id: expect.any(String), thirdpartyId: 'CRM-1', portfolio: org.portfolioId }),
    );
    const read = await client.customers.get(created._id);
    expect(read).toEqual(created);
    expect(read.data.Voornaam).toBe('Marie');
    // The same operation under its operationId.
    expect(await client.call.getCustomer(created._id)).toEqual(created);
    expect(sent).toEqual([
      'POST /api/v1/customers',
      `GET /api/v1/customers/${created._id}`,
      `GET /api/v1/customers/${created._id}`,
    ]);
  });

  it('when a POST is sent, then it carries an Idempotency-Key of its own, and onAnswer sees the request id', async () => {
    const keys: string[] = [];
    const answers: AnswerInfo[] = [];
    const keyed = createClient({
      baseUrl: `${h.baseUrl}/api/v1/`,
      apiKey: org.adminKey,
      idempotencyKey: () => `key-${keys.push('x')}`,
    });
    const a = await keyed.portfolios.create({ name: 'North' }, { onAnswer: (x) => answers.push(x) });
    const b = await keyed.portfolios.create({ name: 'South' }, { onAnswer: (x) => answers.push(x) });
    expect(a._id).not.toBe(b._id);
    expect(keys).toHaveLength(2);
    expect(answers.map((x) => [x.status, x.replayed, x.attempts])).toEqual([
      [201, false, 1],
      [201, false, 1],
    ]);
    expect(answers[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('lists', () => {
  it('when a list of 5 is iterated 2 a page, then every contact comes once, newest first, over 3 pages', async () => {
    const other = await createOrg(h);
    const own = createClient({ baseUrl: h.baseUrl, apiKey: other.adminKey, fetch: recording(sent) });
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5])
      ids.push((await own.customers.create({ data: { Voornaam: `Contact ${n}` } }))._id);
    sent.length = 0;

    const seen: string[] = [];
    for await (const contact of own.customers.list({ limit: 2 })) seen.push(contact._id);

    expect(seen).toEqual([...ids].reverse());
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe('GET /api/v1/customers?limit=2');
    expect(sent[1]).toMatch(/^GET \/api\/v1\/customers\?limit=2&startingAfter=[\w-]+$/);
    // Awaited, the same call is its first page as answered.
    const first = await own.customers.list({ limit: 2 });
    expect(first.customers.map((c) => c._id)).toEqual(ids.slice(3).reverse());
    expect(first).toEqual(
      expect.objectContaining({ total: 5, hasMore: true, nextCursor: expect.any(String) }),
    );
  });

  it('when a contact search (no cursor) spans pages, then the iterator pages by number', async () => {
    const other = await createOrg(h);
    const own = createClient({ baseUrl: h.baseUrl, apiKey: other.adminKey, fetch: recording(sent) });
    for (const n of [1, 2, 3]) await own.customers.create({ data: { Voornaam: `Jan ${n}` } });
    sent.length = 0;
    const names: string[] = [];
    for await (const c of own.customers.list({ search: 'jan', limit: 2 }))
      names.push(String(c.data.Voornaam));
    expect(names.sort()).toEqual(['Jan 1', 'Jan 2', 'Jan 3']);
    expect(sent).toEqual([
      'GET /api/v1/customers?search=jan&limit=2',
      'GET /api/v1/customers?search=jan&limit=2&page=2',
    ]);
  });

  it('when the templates (a bare array, cursor in headers) are iterated 1 a page, then each comes once', async () => {
    const other = await createOrg(h);
    const own = createClient({ baseUrl: h.baseUrl, apiKey: other.adminKey });
    const made: string[] = [];
    for (const n of [1, 2, 3]) made.push((await own.questionLists.create(template(`T${n}`)))._id);
    const seen: string[] = [];
    for await (const t of own.questionLists.list({ limit: 1 })) seen.push(t._id);
    expect(seen).toEqual([...made].reverse());
  });

  it('when a sync ends and a contact changes, then a sync from its cursor lists only that contact', async () => {
    const other = await createOrg(h);
    const own = createClient({ baseUrl: h.baseUrl, apiKey: other.adminKey });
    const a = await own.customers.create({ data: { Voornaam: 'A' } });
    const b = await own.customers.create({ data: { Voornaam: 'B' } });
    await untilSettled(h, other.organisationId);

    const first = own.customers.sync(new Date('2026-01-01T00:00:00Z'), { limit: 1 });
    const synced: string[] = [];
    for await (const c of first) synced.push(c._id);
    expect(synced).toEqual([a._id, b._id]);
    expect(first.cursor).toEqual(expect.any(String));

    await own.customers.update(a._id, { data: { Achternaam: 'Changed' } });
    await untilSettled(h, other.organisationId);
    const next = own.customers.sync({ cursor: first.cursor as string });
    const changed: string[] = [];
    for await (const c of next) changed.push(`${c._id} ${c.data.Achternaam}`);
    expect(changed).toEqual([`${a._id} Changed`]);
    expect(next.cursor).not.toBe(first.cursor);
  });
});

describe('errors', () => {
  it('when a contact is unknown, then an ActionDeskError carries 404, the message, details and the request id', async () => {
    const answers: AnswerInfo[] = [];
    const err = await client.customers.get(unknownId, { onAnswer: (a) => answers.push(a) }).catch((e) => e);
    expect(err).toBeInstanceOf(ActionDeskError);
    expect(err).toEqual(
      expect.objectContaining({
        status: 404,
        details: [],
        operationId: 'getCustomer',
        name: 'ActionDeskError',
      }),
    );
    expect(err.message).toMatch(/not found/i);
    expect(err.requestId).toBe(answers[0]?.requestId);
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a contact is invalid, then the 400 names the field in details, and nothing is retried', async () => {
    const err = await client.customers
      .create({ data: { Voornaam: 'X', Email: 'not an address' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDeskError);
    const refused = err as ActionDeskError;
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('data.Email');
    expect(refused.details).toEqual([expect.objectContaining({ field: 'data.Email', in: 'body' })]);
    expect(sent).toEqual(['POST /api/v1/customers']);
  });

  it('when the API key is wrong, then the 401 (the authentication error body) is an ActionDeskError too', async () => {
    const wrong = createClient({ baseUrl: h.baseUrl, apiKey: `${org.adminKey.slice(0, -1)}x` });
    const err = (await wrong.customers.list().catch((e: unknown) => e)) as ActionDeskError;
    expect(err).toBeInstanceOf(ActionDeskError);
    expect(err.status).toBe(401);
    expect(err.requestId).toEqual(expect.any(String));
  });
});

function recording(into: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(String(input));
    into.push(`${init?.method} ${url.pathname}${url.search}`);
    return fetch(input, init);
  };
}

function template(name: string) {
  const t = (s: string) => ({ nl: s, fr: s, en: s });
  return {
    name,
    supportedLanguages: ['nl', 'fr', 'en'] as ('nl' | 'fr' | 'en')[],
    sections: [
      { id: 's', title: t('S'), questions: [{ id: 'q', type: 'short_text' as const, title: t('Q') }] },
    ],
  };
}
