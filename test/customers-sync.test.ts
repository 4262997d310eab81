import { seedContacts } from '../src/modules/customers/seed.service';
import { createOrg, createTemplate, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, submittedSession } from './support/submissions';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Sync');
});
afterAll(() => h.close());

interface Listed {
  customers: { _id: string; updatedAt: string; data: Record<string, string> }[];
  total: number;
  totalIsEstimate: boolean;
  hasMore: boolean;
  nextCursor: string | null;
}

const list = async (query: string): Promise<Listed> => {
  const res = await h.api().get(`/api/v1/customers?${query}`).set('x-api-key', org.adminKey);
  expect([res.status, res.body.error]).toEqual([200, undefined]);
  return res.body;
};
const create = async (name: string) => {
  const res = await h
    .api()
    .post('/api/v1/customers')
    .set('x-api-key', org.adminKey)
    .send({ data: { Voornaam: name } });
  expect(res.status).toBe(201);
  return res.body._id as string;
};
const remove = async (id: string) => {
  const res = await h.api().delete(`/api/v1/customers/${id}`).set('x-api-key', org.adminKey);
  expect(res.status).toBe(204);
};

describe('syncing contacts page by page (keyset cursor)', () => {
  it('when a CRM walks 1,000 contacts by cursor while others are created and deleted, then it gets each surviving contact exactly once', async () => {
    await seedContacts(h, org.organisationId, 1_000);
    const before = await list('limit=100');
    expect(before.total).toBe(1_000);
    const originals: string[] = [];
    let walk: Listed = before;
    originals.push(...walk.customers.map((c) => c._id));
    while (walk.hasMore) {
      walk = await list(`limit=100&startingAfter=${walk.nextCursor}`);
      originals.push(...walk.customers.map((c) => c._id));
    }
    expect(originals).toHaveLength(1_000);

    const seen: string[] = [];
    const deleted = new Set<string>();
    let cursor: string | null = null;
    let round = 0;
    do {
      const page: Listed = await list(`limit=97${cursor ? `&startingAfter=${cursor}` : ''}`);
      seen.push(...page.customers.map((c) => c._id));
      cursor = page.hasMore ? page.nextCursor : null;
      // Meanwhile: new contacts, and deletions ahead of the walk and behind it.
      h.clock.advance(1_000);
      await create(`New ${round}`);
      const ahead = originals[originals.length - 1 - round * 3];
      const behind = seen[round];
      for (const id of [ahead, behind]) {
        if (id && !deleted.has(id)) {
          await remove(id);
          deleted.add(id);
        }
      }
      round++;
    } while (cursor);

    const surviving = originals.filter((id) => !deleted.has(id));
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const id of surviving) expect([id, counts.get(id)]).toEqual([id, 1]);
    // Deleted ahead of the walk: never returned. New ones are newer than where the walk began.
    for (const id of seen) expect(originals).toContain(id);
    expect(round).toBeGreaterThan(10);
  });

  it('when a CRM syncs with updatedSince, then it gets every contact created or changed since, oldest change first, and a contact changed during the walk again at its end', async () => {
    h.clock.set('2026-03-03T08:00:00.000Z');
    const since = '2026-03-03T08:00:00.000Z';
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      h.clock.advance(1_000);
      ids.push(await create(`Sync ${i}`));
    }
    const firstPage = await list(`updatedSince=${since}&limit=3`);
    expect(firstPage.customers.map((c) => c._id)).toEqual(ids.slice(0, 3));
    expect(firstPage).toMatchObject({ total: 7, totalIsEstimate: false, hasMore: true });
    // A contact already seen changes while the CRM pages on: it comes again, after the others.
    h.clock.advance(1_000);
    const changed = await h
      .api()
      .patch(`/api/v1/customers/${ids[1]}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Voornaam: 'Sync 1b' } });
    expect(changed.status).toBe(200);
    const rest: string[] = [];
    let cursor = firstPage.nextCursor;
    for (;;) {
      const page = await list(`limit=3&startingAfter=${cursor}`);
      rest.push(...page.customers.map((c) => c._id));
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(rest).toEqual([...ids.slice(3), ids[1]]);
    // Nothing new: the kept cursor answers an empty page, and keeps working for later changes.
    const idle = await list(`limit=3&startingAfter=${cursor}`);
    expect(idle).toMatchObject({ customers: [], hasMore: false, nextCursor: cursor });
    h.clock.advance(1_000);
    const later = await create('Later');
    expect((await list(`limit=3&startingAfter=${cursor}`)).customers.map((c) => c._id)).toEqual([later]);
  });

  it('when the first page is asked by page, then its nextCursor continues exactly where page 2 starts', async () => {
    const one = await list('limit=25&page=1');
    const two = await list('limit=25&page=2');
    const byCursor = await list(`limit=25&startingAfter=${one.nextCursor}`);
    expect(byCursor.customers.map((c) => c._id)).toEqual(two.customers.map((c) => c._id));
    expect(one.hasMore).toBe(true);
  });

  it('when a contact is deleted, then a sync learns it from the events (customer.deleted), never from a missing row alone', async () => {
    const id = await create('Tombstone');
    await remove(id);
    const res = await h
      .api()
      .get('/api/v1/events?type=customer.deleted&limit=100')
      .set('x-api-key', org.adminKey);
    expect(res.status).toBe(200);
    const ids = res.body.events.map((e: { data: { customer: { _id: string } } }) => e.data.customer._id);
    expect(ids).toContain(id);
  });

  it('when the cursor is not one of ours, is combined with a search or a different updatedSince, then 400 names it', async () => {
    const sessionsCursor = Buffer.from(
      JSON.stringify({ l: 'sessions', o: 'created', t: '2026-03-02T09:00:00.000Z', i: org.adminId }),
    ).toString('base64url');
    const farFuture = Buffer.from(
      JSON.stringify({ l: 'customers', o: 'created', t: '+010000-01-01T00:00:00.000Z', i: org.adminId }),
    ).toString('base64url');
    for (const bad of [
      'nope',
      Buffer.from('{"l":"customers","o":"created","t":"x","i":"y"}').toString('base64url'),
      farFuture,
      sessionsCursor, // another list's cursor
    ]) {
      const res = await h.api().get(`/api/v1/customers?startingAfter=${bad}`).set('x-api-key', org.adminKey);
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ field: 'startingAfter', in: 'query' });
    }
    const page = await list('limit=1');
    const searched = await h
      .api()
      .get(`/api/v1/customers?search=sync&startingAfter=${page.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(searched.status).toBe(400);
    const sync = await list('updatedSince=2026-03-03T08:00:00Z&limit=1');
    const mismatch = await h
      .api()
      .get(`/api/v1/customers?updatedSince=2026-01-01T00:00:00Z&startingAfter=${sync.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.details[0]).toMatchObject({ field: 'updatedSince' });
  });
});

describe('actions and sessions by cursor', () => {
  it('when a CRM walks the actions by cursor and syncs them with updatedSince, then each comes once, in the order of the walk', async () => {
    const template = await createTemplate(h, org);
    const contact = await create('Actie');
    h.clock.set('2026-03-04T08:00:00.000Z');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1_000);
      const res = await h
        .api()
        .post('/api/v1/sessionrequests')
        .set('x-api-key', org.adminKey)
        .send({ type: 'qlist', customerId: contact, questionListIds: [template] });
      made.push(res.body._id);
    }
    const walk = async (first: string) => {
      const ids: string[] = [];
      let res = await h.api().get(`/api/v1/sessionrequests?${first}`).set('x-api-key', org.adminKey);
      ids.push(...res.body.sessionRequests.map((a: { _id: string }) => a._id));
      while (res.body.hasMore) {
        res = await h
          .api()
          .get(`/api/v1/sessionrequests?limit=2&startingAfter=${res.body.nextCursor}`)
          .set('x-api-key', org.adminKey);
        ids.push(...res.body.sessionRequests.map((a: { _id: string }) => a._id));
      }
      return ids;
    };
    expect(await walk('limit=2&updatedSince=2026-03-04T08:00:00Z')).toEqual(made);
    const newestFirst = await walk('limit=2');
    expect(newestFirst.slice(0, 5)).toEqual([...made].reverse());
    expect(new Set(newestFirst).size).toBe(newestFirst.length);
    // Paging a sync by page, as before cursors, still works (in update order).
    const second = await h
      .api()
      .get('/api/v1/sessionrequests?updatedSince=2026-03-04T08:00:00Z&limit=2&page=2')
      .set('x-api-key', org.adminKey);
    expect(second.body.sessionRequests.map((a: { _id: string }) => a._id)).toEqual(made.slice(2, 4));
  });

  it('when the sessions are walked by cursor, then each comes once', async () => {
    const template = await createReportTemplate(h, org);
    for (let i = 0; i < 3; i++) await submittedSession(h, org, { template });
    const first = await h.api().get('/api/v1/sessions?limit=2').set('x-api-key', org.adminKey);
    expect(first.body).toMatchObject({ total: 3, hasMore: true });
    const rest = await h
      .api()
      .get(`/api/v1/sessions?limit=2&startingAfter=${first.body.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(rest.body.hasMore).toBe(false);
    const ids = [...first.body.sessions, ...rest.body.sessions].map((s: { _id: string }) => s._id);
    expect(new Set(ids).size).toBe(3);
  });
});
