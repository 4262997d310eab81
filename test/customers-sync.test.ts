import { type SQL, sql } from 'drizzle-orm';
import { customerStatements } from '../src/modules/customers/customers.repository';
import { seedContacts } from '../src/modules/customers/seed.service';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import {
  createContact,
  createOrg,
  createTemplate,
  type TestOrg,
  tenantRows,
  untilSettled,
} from './support/fixtures';
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
/** A list that passes every change made so far (see untilSettled): for reads with `updatedSince`. */
const sync = async (query: string): Promise<Listed> => {
  await untilSettled(h, org.organisationId);
  return list(query);
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
    const firstPage = await sync(`updatedSince=${since}&limit=3`);
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
      const page = await sync(`limit=3&startingAfter=${cursor}`);
      rest.push(...page.customers.map((c) => c._id));
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(rest).toEqual([...ids.slice(3), ids[1]]);
    // Nothing new: the kept cursor answers an empty page, and keeps working for later changes.
    const idle = await sync(`limit=3&startingAfter=${cursor}`);
    expect(idle).toMatchObject({ customers: [], hasMore: false, nextCursor: cursor });
    h.clock.advance(1_000);
    const later = await create('Later');
    expect((await sync(`limit=3&startingAfter=${cursor}`)).customers.map((c) => c._id)).toEqual([later]);
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
    await untilSettled(h, org.organisationId);
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
    const synced = await sync('updatedSince=2026-03-03T08:00:00Z&limit=1');
    const mismatch = await h
      .api()
      .get(`/api/v1/customers?updatedSince=2026-01-01T00:00:00Z&startingAfter=${synced.nextCursor}`)
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
      await untilSettled(h, org.organisationId);
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
    // Paging a sync by page, as before cursors, still works (in commit order).
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

describe('syncs read in commit order', () => {
  const syncAll = async (first: string) => {
    const ids: string[] = [];
    let page = await sync(first);
    ids.push(...page.customers.map((c) => c._id));
    while (page.hasMore) {
      page = await sync(`limit=2&startingAfter=${page.nextCursor}`);
      ids.push(...page.customers.map((c) => c._id));
    }
    return { ids, cursor: page.nextCursor };
  };

  it('when contacts share one timestamp, then a walk and a sync by cursor still return each exactly once (the id breaks ties)', async () => {
    h.clock.set('2026-03-05T08:00:00.000Z');
    const same: string[] = [];
    for (let i = 0; i < 5; i++) same.push(await create(`Tie ${i}`));
    const newest = await list('limit=2');
    const walked: string[] = newest.customers.map((c) => c._id);
    let page = newest;
    while (walked.length < 5) {
      page = await list(`limit=2&startingAfter=${page.nextCursor}`);
      walked.push(...page.customers.map((c) => c._id));
    }
    expect(walked.slice(0, 5).sort()).toEqual([...same].sort());
    expect(walked.slice(0, 5)).toEqual([...same].sort().reverse());
    const { ids } = await syncAll('updatedSince=2026-03-05T08:00:00Z&limit=2');
    expect(ids).toEqual(same);
  });

  it('when a change commits after a later one, then a sync does not pass it: it comes once it committed', async () => {
    h.clock.set('2026-03-06T08:00:00.000Z');
    const early = await create('Early');
    const { cursor } = await syncAll('updatedSince=2026-03-06T08:00:00Z&limit=2');
    const ctx = systemContext(org.organisationId, h.clock.now());
    const late = customerStatements.keyset(
      ctx,
      {},
      { order: 'updated', since: new Date('2026-03-06T08:00:00Z') },
      100,
    );
    if (process.env.DATABASE_URL) {
      // On a server: a transaction changes `early` (at 08:00:01) and stays open while a later change
      // (08:00:02) commits. A sync meanwhile must not list the later one, or its cursor would pass
      // the change still to come.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let changed = () => {};
      const inside = new Promise<void>((resolve) => {
        changed = resolve;
      });
      const slow = inTenant(h.database, ctx, async (tx) => {
        await tx.execute(
          sql`UPDATE customers SET data = data || '{"Gemeente":"Laat"}', updated_at = '2026-03-06T08:00:01Z' WHERE id = ${early}::uuid`,
        );
        changed();
        await held;
      });
      await inside;
      h.clock.set('2026-03-06T08:00:02.000Z');
      const after = await create('After');
      const meanwhile = await list(`limit=10&startingAfter=${cursor}`);
      expect(meanwhile.customers.map((c) => c._id)).toEqual([]);
      release();
      await slow;
      const caughtUp = await sync(`limit=10&startingAfter=${cursor}`);
      expect(caughtUp.customers.map((c) => c._id)).toEqual([early, after]);
    } else {
      // Embedded (one connection): inside a transaction that changed a contact, the sync's own
      // statement does not list that change: only changes of finished transactions are passed.
      const seen = await inTenant(h.database, ctx, async (tx) => {
        await tx.execute(
          sql`UPDATE customers SET data = data || '{"Gemeente":"Laat"}' WHERE id = ${early}::uuid`,
        );
        return queryRows<{ id: string }>(tx, late);
      });
      expect(seen.map((r) => r.id)).not.toContain(early);
      const caughtUp = await sync(`limit=10&startingAfter=${cursor}`);
      expect(caughtUp.customers.map((c) => c._id)).toEqual([early]);
    }
  });

  it('when a sync cursor of the first release (a moment, not a transaction) comes back, then the sync goes on from its moment, also with its updatedSince repeated', async () => {
    h.clock.set('2026-03-08T08:00:00.000Z');
    const older = await create('Voor');
    h.clock.set('2026-03-08T09:00:00.000Z');
    const newer = await create('Na');
    const legacy = Buffer.from(
      JSON.stringify({
        l: 'customers',
        o: 'updated',
        t: '2026-03-08T08:30:00.000Z',
        i: older,
        s: '2026-03-08T00:00:00.000Z',
      }),
    ).toString('base64url');
    for (const extra of ['', '&updatedSince=2026-03-08T00:00:00.000Z']) {
      const page = await sync(`limit=10&startingAfter=${legacy}${extra}`);
      expect(page.customers.map((c) => c._id)).toEqual([newer]);
      const next = await sync(`limit=10&startingAfter=${page.nextCursor}${extra}`);
      expect(next.customers).toEqual([]);
    }
  });

  it('when a sync cursor names no transaction a cursor could, then 400 names startingAfter', async () => {
    for (const x of ['abc', '12345678901234567890', '-1', '']) {
      const bad = Buffer.from(
        JSON.stringify({ l: 'customers', o: 'updated', x, i: org.adminId, f: '-' }),
      ).toString('base64url');
      const res = await h.api().get(`/api/v1/customers?startingAfter=${bad}`).set('x-api-key', org.adminKey);
      expect([x, res.status, res.body.details?.[0]?.field]).toEqual([x, 400, 'startingAfter']);
    }
  });

  it('when a cursor is used with other filters than its first page, then 400 names startingAfter', async () => {
    for (const [first, then] of [
      ['limit=1', 'limit=1&thirdpartyId=X'],
      ['limit=1&updatedSince=2026-01-01T00:00:00Z', 'limit=1&thirdpartyId=Y'],
    ] as const) {
      const page = await sync(first);
      expect(page.nextCursor).not.toBeNull();
      const res = await h
        .api()
        .get(`/api/v1/customers?${then}&startingAfter=${page.nextCursor}`)
        .set('x-api-key', org.adminKey);
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ field: 'startingAfter', in: 'query' });
      expect(res.body.details[0].message).toContain('other filters');
    }
  });

  it('when a deep page is read by cursor, then the database walks an index with no sort', async () => {
    const ctx = systemContext(org.organisationId, h.clock.now());
    const deep = await list('limit=100&page=5');
    const last = deep.customers.at(-1)!;
    const plans = await inTenant(h.database, ctx, async (tx) => {
      // Whatever the table's statistics, a sort means no index serves the page's order.
      await tx.execute(sql`SET LOCAL enable_sort = off`);
      await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const walk = customerStatements.keyset(
        ctx,
        {},
        { order: 'created', after: { at: new Date(last.updatedAt), id: last._id } },
        100,
      );
      const sync = customerStatements.keyset(
        ctx,
        {},
        { order: 'updated', since: new Date('2000-01-01T00:00:00Z'), after: { txid: '1', id: last._id } },
        100,
      );
      const explain = async (q: SQL) =>
        (await queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN ${q}`))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      // A sync's first page: it starts at the oldest change since the moment, found by change time.
      const first = customerStatements.keyset(
        ctx,
        {},
        { order: 'updated', since: new Date('2026-03-06T00:00:00Z') },
        100,
      );
      return { walk: await explain(walk), sync: await explain(sync), first: await explain(first) };
    });
    expect(plans.walk).toMatch(/Index Scan (Backward )?using customers_org_created_idx/);
    expect(plans.sync).toMatch(/Index Scan using customers_org_change_idx/);
    // The first page: its start read from the change-time index alone (the rows changed since are
    // sorted for their oldest transaction), then the transaction index from there, unsorted.
    expect(plans.first).toMatch(/Index Only Scan using customers_org_updated_idx/);
    expect(plans.first).toMatch(/Index Scan using customers_org_change_idx/);
    const sorts = [...plans.first.matchAll(/(^|->)\s*(Incremental )?Sort\s+\(/gm)].map((m) => m.index ?? 0);
    expect(sorts.length).toBeLessThanOrEqual(1);
    for (const at of sorts) {
      expect(at).toBeGreaterThan(plans.first.indexOf('InitPlan'));
      expect(at).toBeLessThan(plans.first.lastIndexOf('customers_org_change_idx'));
    }
    for (const plan of [plans.walk, plans.sync]) expect(plan).not.toMatch(/Sort/);
    for (const plan of Object.values(plans)) expect(plan).not.toMatch(/Seq Scan/);
  });

  it('when a change leaves the change time alone, then a sync lists it whatever its page size', async () => {
    h.clock.set('2026-03-09T08:00:00.000Z');
    const a = await create('Alfa');
    h.clock.set('2026-03-09T09:00:00.000Z');
    const b = await create('Bravo');
    h.clock.set('2026-03-09T10:00:00.000Z');
    const c = await create('Charlie');
    // A change made by the service itself that keeps `updatedAt` (as a webhook marked failing does).
    await tenantRows(
      h,
      org.organisationId,
      sql`UPDATE customers SET data = data || '{"Gemeente":"Stil"}' WHERE id = ${a}::uuid`,
    );
    for (const limit of [1, 2, 100]) {
      const { ids } = await syncAll(`updatedSince=2026-03-09T09:00:00Z&limit=${limit}`);
      expect([limit, ids]).toEqual([limit, [b, c, a]]);
    }
  });
});

describe('what an action sync sees', () => {
  it('when a signer of a signing action changes, then the action comes again in the sync, with its totals marked exact', async () => {
    const template = await createReportTemplate(h, org);
    const one = await createContact(h, org, { Voornaam: 'Signer A', Email: 'a@example.test' });
    const two = await createContact(h, org, { Voornaam: 'Signer B', Email: 'b@example.test' });
    h.clock.set('2026-03-07T08:00:00.000Z');
    const made = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'multisigning', customerIds: [one, two], questionListIds: [template] });
    expect([made.status, made.body.error]).toEqual([201, undefined]);
    await untilSettled(h, org.organisationId);
    const first = await h
      .api()
      .get('/api/v1/sessionrequests?updatedSince=2026-03-07T08:00:00Z')
      .set('x-api-key', org.adminKey);
    expect(first.body).toMatchObject({ total: 1, totalIsEstimate: false, hasMore: false });
    h.clock.advance(60_000);
    const secondCode = (made.body.signers[1].url as string).split('/action/')[1];
    expect((await h.api().get(`/action/${secondCode}`)).status).toBe(200);
    await untilSettled(h, org.organisationId);
    const again = await h
      .api()
      .get(`/api/v1/sessionrequests?startingAfter=${first.body.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(again.body.sessionRequests.map((a: { _id: string }) => a._id)).toEqual([made.body._id]);
    expect(again.body.sessionRequests[0].updatedAt).toBe('2026-03-07T08:01:00.000Z');
    expect(again.body.sessionRequests[0].signers[1].openedAt).toBe('2026-03-07T08:01:00.000Z');
  });
});
