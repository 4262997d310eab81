import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Customer, CustomerList } from '../src/modules/customers/customers.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { samplePdf } from './support/binary';
import { createContact, createOrg, createUserWithKey, type TestOrg, unknownId } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, type Submitted, submittedSession } from './support/submissions';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  // Files on disk: the tests look at what is left in the files directory.
  h = await startHarness({ FILE_STORAGE: 'disk' });
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

const post = (key: string, body: unknown) =>
  h
    .api()
    .post('/api/v1/customers')
    .set('x-api-key', key)
    .send(body as object);

async function dbCustomer(id: string) {
  const [row] = await queryRows<{
    organisation_id: string;
    data: Record<string, string>;
    thirdparty_id: string | null;
  }>(h.database.db, sql`SELECT * FROM customers WHERE id = ${id}`);
  return row;
}

/** The contact's data as stored, read in its organisation (row-level security hides it otherwise). */
async function storedData(id: string, o: TestOrg = org) {
  const [row] = await inTenant(h.database, systemContext(o.organisationId), (tx) =>
    queryRows<{ data: Record<string, string> }>(tx, sql`SELECT data FROM customers WHERE id = ${id}`),
  );
  return row?.data;
}

describe('POST /api/v1/customers', () => {
  it('when the body is valid, then it answers 201 with the stored contact', async () => {
    const res = await post(org.adminKey, {
      portfolioId: org.portfolioId,
      thirdpartyId: 'crm-1',
      data: { Voornaam: 'Jan', Achternaam: 'Peeters', Email: 'jan@example.be', Lievelingskleur: 'blauw' },
    });
    expect(res.status).toBe(201);
    const body = Customer.parse(res.body);
    expect(body).toMatchObject({
      thirdpartyId: 'crm-1',
      portfolio: org.portfolioId,
      data: { Voornaam: 'Jan', Achternaam: 'Peeters', Email: 'jan@example.be', Lievelingskleur: 'blauw' },
      createdAt: '2026-03-02T09:00:00.000Z',
    });
    // The database row is not visible without the organisation setting, so read it through the API.
    const got = await h.api().get(`/api/v1/customers/${body._id}`).set('x-api-key', org.adminKey);
    expect(got.body).toEqual(body);
  });

  it('when portfolioId is omitted, then the contact goes to the default portfolio', async () => {
    const res = await post(org.adminKey, { data: { Achternaam: 'Maes' } });
    expect(res.status).toBe(201);
    expect(res.body.portfolio).toBe(org.portfolioId);
  });

  it('when fields are invalid, then 400 names each of them and nothing is stored', async () => {
    const before = (await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).body.total;
    const res = await post(org.adminKey, {
      data: { Email: 'not-an-address', Huisnummer: 12 },
      isAdmin: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400 });
    const fields = res.body.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['data.Email', 'data.Huisnummer', 'isAdmin']);
    expect(res.body.error).toContain('data.Email');
    const after = (await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).body.total;
    expect(after).toBe(before);
  });

  it('when Telefoon is written as people write it, then the contact is created with it exactly as given', async () => {
    const res = await post(org.adminKey, {
      data: { Voornaam: 'Gert', Telefoon: '0478 12 34 56 (gsm)', Fax: 'geen' },
    });
    expect(res.status).toBe(201);
    expect(Customer.parse(res.body).data).toEqual({
      Voornaam: 'Gert',
      Telefoon: '0478 12 34 56 (gsm)',
      Fax: 'geen',
    });
    expect(await storedData(res.body._id)).toEqual(res.body.data);
  });

  it('when no name or e-mail is given, then 400 says one is required', async () => {
    const res = await post(org.adminKey, { data: { Gemeente: 'Gent' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at least one of Voornaam, Achternaam or Email/);
  });

  it('when data is missing, then 400 names data', async () => {
    const res = await post(org.adminKey, { thirdpartyId: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'data' })]);
  });

  it('when the portfolio belongs to another organisation, then 400 names portfolioId', async () => {
    const res = await post(org.adminKey, { portfolioId: other.portfolioId, data: { Voornaam: 'X' } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'portfolioId', in: 'body', message: 'is not a portfolio of this organisation' },
    ]);
  });

  it('when the thirdpartyId is already used, then 409 points at the existing contact', async () => {
    const first = await post(org.adminKey, { thirdpartyId: 'dup-1', data: { Voornaam: 'A' } });
    const second = await post(org.adminKey, { thirdpartyId: 'dup-1', data: { Voornaam: 'B' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      success: false,
      status: 409,
      details: [{ field: 'thirdpartyId', in: 'body', value: first.body._id }],
    });
    // Another organisation may use the same reference.
    expect((await post(other.adminKey, { thirdpartyId: 'dup-1', data: { Voornaam: 'C' } })).status).toBe(201);
  });

  it('when the user may only read, then 403 in the auth error shape', async () => {
    const reader = await createUserWithKey(h, org, ['read-only']);
    const res = await post(reader.key, { data: { Voornaam: 'X' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      success: false,
      error: "Permission 'create' is required; the user's groups do not grant it",
      code: 403,
      details: [],
      requestId: expect.any(String),
    });
  });

  it('when no key is sent, then 401', async () => {
    const res = await h
      .api()
      .post('/api/v1/customers')
      .send({ data: { Voornaam: 'X' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 401 });
  });
});

describe('GET /api/v1/customers', () => {
  let listOrg: TestOrg;
  const people = [
    { Voornaam: 'Élodie', Achternaam: 'Dubois', Email: 'elodie@example.be' },
    { Voornaam: 'elodie', Achternaam: 'Lefèvre', Email: 'e.lefevre@example.be' },
    { Voornaam: 'Jan', Achternaam: 'Peeters', Email: 'JAN.P@Example.be' },
    { Voornaam: 'Zoë', Achternaam: 'Janssens', Email: 'zoe@example.be' },
    { Voornaam: 'Bram', Achternaam: 'Maes', Email: 'bram_100@example.be' },
  ];
  const ids: string[] = [];
  let second: string;

  beforeAll(async () => {
    listOrg = await createOrg(h);
    second = (
      await h.api().post('/api/v1/portfolios').set('x-api-key', listOrg.adminKey).send({ name: 'Tweede' })
    ).body._id;
    for (const [i, data] of people.entries()) {
      h.clock.advance(1000);
      const res = await post(listOrg.adminKey, {
        data,
        thirdpartyId: `tp-${i}`,
        portfolioId: i === 3 ? second : undefined,
      });
      ids.push(res.body._id);
    }
  });

  const list = (query: string, key = listOrg.adminKey) =>
    h.api().get(`/api/v1/customers${query}`).set('x-api-key', key);

  it('when called plainly, then it answers the newest first with the total', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    const body = CustomerList.parse(res.body);
    expect(body.total).toBe(5);
    expect(body.customers.map((c) => c._id)).toEqual([...ids].reverse());
  });

  it('when paginated, then pages do not overlap and keep the total', async () => {
    const p1 = await list('?limit=2&page=1');
    const p3 = await list('?limit=2&page=3');
    expect(p1.body.customers.map((c: { _id: string }) => c._id)).toEqual([ids[4], ids[3]]);
    expect(p3.body.customers.map((c: { _id: string }) => c._id)).toEqual([ids[0]]);
    expect(p3.body.total).toBe(5);
  });

  it('when searching, then case and accents are ignored over first name, last name and e-mail', async () => {
    const names = async (q: string) =>
      (await list(`?search=${encodeURIComponent(q)}`)).body.customers
        .map((c: { data: { Achternaam: string } }) => c.data.Achternaam)
        .sort();
    expect(await names('ELODIE')).toEqual(['Dubois', 'Lefèvre']);
    expect(await names('lefevre')).toEqual(['Lefèvre']);
    expect(await names('zoe')).toEqual(['Janssens']);
    expect(await names('jan')).toEqual(['Janssens', 'Peeters']);
    expect(await names('jan peeters')).toEqual(['Peeters']);
    expect(await names('jan.p@example')).toEqual(['Peeters']);
    // LIKE wildcards in the search are matched literally.
    expect(await names('_100')).toEqual(['Maes']);
    expect(await names('_')).toEqual(['Maes']);
    expect(await names('%')).toEqual([]);
    expect(await names('Gent')).toEqual([]);
    const res = await list('?search=elodie&limit=1');
    expect(res.body.total).toBe(2);
    expect(res.body.customers).toHaveLength(1);
  });

  it('when filtering on a portfolio, then only its contacts and their count are returned', async () => {
    const res = await list(`?portfolioId=${second}`);
    expect(res.body.total).toBe(1);
    expect(res.body.customers.map((c: { _id: string }) => c._id)).toEqual([ids[3]]);
    const other = await list(`?portfolioId=${listOrg.portfolioId}`);
    expect(other.body.total).toBe(4);
  });

  it('when looking up a thirdpartyId, then exactly that contact is returned', async () => {
    const res = await list('?thirdpartyId=tp-2');
    expect(res.body).toMatchObject({ total: 1, customers: [{ _id: ids[2], thirdpartyId: 'tp-2' }] });
    expect((await list('?thirdpartyId=nope')).body).toEqual({
      customers: [],
      total: 0,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?page=0', 'page'],
    ['?portfolioId=not-an-id', 'portfolioId'],
  ])('when the query is %s, then 400 names %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe(field);
    expect(res.body.error).toContain(field);
  });

  it('when another organisation lists, then it sees none of these contacts', async () => {
    const res = await list(`?thirdpartyId=tp-2`, other.adminKey);
    expect(res.body).toEqual({
      customers: [],
      total: 0,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
    const byPortfolio = await list(`?portfolioId=${second}`, other.adminKey);
    expect(byPortfolio.body).toEqual({
      customers: [],
      total: 0,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
  });

  it('when contacts are moved or deleted, then the totals follow', async () => {
    await h
      .api()
      .patch(`/api/v1/customers/${ids[0]}`)
      .set('x-api-key', listOrg.adminKey)
      .send({ portfolioId: second });
    expect((await list(`?portfolioId=${second}`)).body.total).toBe(2);
    expect((await list(`?portfolioId=${listOrg.portfolioId}`)).body.total).toBe(3);
    await h.api().delete(`/api/v1/customers/${ids[0]}`).set('x-api-key', listOrg.adminKey);
    expect((await list(`?portfolioId=${second}`)).body.total).toBe(1);
    expect((await list('')).body.total).toBe(4);
  });

  it('when the plan is inspected, then pages and searches are served by organisation-first indexes', async () => {
    const plan = async (query: string) => {
      const rows = await h.database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('app.organisation_id', ${listOrg.organisationId}, true)`);
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        if (!query.includes('LIKE')) {
          await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
          await tx.execute(sql`SET LOCAL enable_sort = off`);
        }
        return queryRows<{ 'QUERY PLAN': string }>(tx, sql.raw(`EXPLAIN ${query}`));
      });
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const org = `organisation_id = '${listOrg.organisationId}'`;
    expect(
      await plan(`SELECT * FROM customers WHERE ${org} ORDER BY created_at DESC, id DESC LIMIT 25 OFFSET 50`),
    ).toContain('customers_org_created_idx');
    expect(
      await plan(
        `SELECT * FROM customers WHERE ${org} AND portfolio_id = '${second}' ORDER BY created_at DESC, id DESC LIMIT 25`,
      ),
    ).toContain('customers_org_portfolio_created_idx');
    // Search runs inside actiondesk_customer_matches (LIKE cannot use an index under row-level security);
    // its query is served by the organisation-first trigram index.
    const [gin] = await queryRows<{ indexdef: string }>(
      h.database.db,
      sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'customers_org_search_idx'`,
    );
    expect(gin?.indexdef).toContain('USING gin (organisation_id, search_text gin_trgm_ops)');
  });
});

describe('GET /api/v1/customers/{id}', () => {
  it('when the id is unknown, malformed or another organisation’s, then 404 with the same body', async () => {
    const mine = await post(org.adminKey, { data: { Voornaam: 'Mine' } });
    for (const [key, id] of [
      [org.adminKey, unknownId],
      [org.adminKey, 'not-an-id'],
      [other.adminKey, mine.body._id],
    ]) {
      const res = await h
        .api()
        .get(`/api/v1/customers/${id}`)
        .set('x-api-key', key as string);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: 'Customer not found',
        status: 404,
        details: [],
        requestId: expect.any(String),
      });
    }
  });

  it('when there is no key, then 401', async () => {
    expect((await h.api().get(`/api/v1/customers/${unknownId}`)).status).toBe(401);
  });
});

describe('PATCH /api/v1/customers/{id}', () => {
  it('when data is sent, then keys are merged and null removes a key', async () => {
    const created = await post(org.adminKey, {
      data: { Voornaam: 'Ann', Achternaam: 'Claes', Gemeente: 'Gent', Postcode: '9000' },
    });
    h.clock.advance(60_000);
    const res = await h
      .api()
      .patch(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', org.adminKey)
      .send({
        data: { Gemeente: 'Leuven', Postcode: null, Email: 'ann@example.be' },
        thirdpartyId: 'crm-ann',
      });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      Voornaam: 'Ann',
      Achternaam: 'Claes',
      Gemeente: 'Leuven',
      Email: 'ann@example.be',
    });
    expect(res.body.thirdpartyId).toBe('crm-ann');
    expect(Date.parse(res.body.updatedAt) - Date.parse(res.body.createdAt)).toBe(60_000);
    // Search follows the new e-mail.
    const found = await h.api().get('/api/v1/customers?search=ann@example').set('x-api-key', org.adminKey);
    expect(found.body.customers.map((c: { _id: string }) => c._id)).toContain(created.body._id);
  });

  it('when Telefoon is changed to a number written with words around it, then it is kept as given; null still removes it', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Hanne', Telefoon: '+32470000099' } });
    const patch = (data: Record<string, string | null>) =>
      h.api().patch(`/api/v1/customers/${created.body._id}`).set('x-api-key', org.adminKey).send({ data });
    const written = await patch({ Telefoon: 'tel.: +32 (0)478/12.34.56 – na 18u' });
    expect(written.status).toBe(200);
    expect(Customer.parse(written.body).data).toEqual({
      Voornaam: 'Hanne',
      Telefoon: 'tel.: +32 (0)478/12.34.56 – na 18u',
    });
    expect(await storedData(created.body._id)).toEqual(written.body.data);
    const removed = await patch({ Telefoon: null });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ Voornaam: 'Hanne' });
    expect(await storedData(created.body._id)).toEqual({ Voornaam: 'Hanne' });
  });

  it('when the merged record is invalid, then 400 names the field and nothing changes', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Bo' } });
    const res = await h
      .api()
      .patch(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Voornaam: null, Email: 'bad' } });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain('data.Email');
    const got = await h.api().get(`/api/v1/customers/${created.body._id}`).set('x-api-key', org.adminKey);
    expect(got.body.data).toEqual({ Voornaam: 'Bo' });
  });

  it('when the body is empty, then 400', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Cy' } });
    const res = await h
      .api()
      .patch(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', org.adminKey)
      .send({});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at least one of portfolioId, thirdpartyId, data/);
  });

  it('when the contact is another organisation’s, then 404 and it is unchanged', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Dee' } });
    const res = await h
      .api()
      .patch(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', other.adminKey)
      .send({ data: { Voornaam: 'Hacked' } });
    expect(res.status).toBe(404);
    const got = await h.api().get(`/api/v1/customers/${created.body._id}`).set('x-api-key', org.adminKey);
    expect(got.body.data.Voornaam).toBe('Dee');
  });

  it('when the user may only read, then 403', async () => {
    const reader = await createUserWithKey(h, org, ['read-only']);
    const res = await h
      .api()
      .patch(`/api/v1/customers/${unknownId}`)
      .set('x-api-key', reader.key)
      .send({ data: {} });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /api/v1/customers/{id}', () => {
  it('when deleted, then 204 and the contact is gone', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Gone' } });
    const res = await h.api().delete(`/api/v1/customers/${created.body._id}`).set('x-api-key', org.adminKey);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await dbCustomer(created.body._id)).toBeUndefined();
    const again = await h
      .api()
      .delete(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', org.adminKey);
    expect(again.status).toBe(404);
  });

  it('when an adviser deletes, then 403: deleting needs the delete permission', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const created = await post(adviser.key, { data: { Voornaam: 'Kept' } });
    expect(created.status).toBe(201);
    const res = await h.api().delete(`/api/v1/customers/${created.body._id}`).set('x-api-key', adviser.key);
    expect(res.status).toBe(403);
    const manager = await createUserWithKey(h, org, ['file manager']);
    expect(
      (await h.api().delete(`/api/v1/customers/${created.body._id}`).set('x-api-key', manager.key)).status,
    ).toBe(204);
  });

  it('when another organisation deletes, then 404 and the contact stays', async () => {
    const created = await post(org.adminKey, { data: { Voornaam: 'Stays' } });
    const res = await h
      .api()
      .delete(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', other.adminKey);
    expect(res.status).toBe(404);
    expect(
      (await h.api().get(`/api/v1/customers/${created.body._id}`).set('x-api-key', org.adminKey)).status,
    ).toBe(200);
  });
});

describe('DELETE /api/v1/customers/{id} of a contact with actions', () => {
  let template: string;
  beforeAll(async () => {
    template = await createReportTemplate(h, org);
  });

  const remove = (id: string, query = '', key = org.adminKey) =>
    h.api().delete(`/api/v1/customers/${id}${query}`).set('x-api-key', key);

  /** What the database and the file storage hold for a contact and their actions. */
  async function footprint(contact: string, s: Submitted) {
    const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<Record<string, string>>(
        tx,
        sql`SELECT
          (SELECT count(*) FROM customers WHERE id = ${contact}) AS customers,
          (SELECT count(*) FROM session_requests WHERE customer_id = ${contact}) AS actions,
          (SELECT count(*) FROM session_request_events e JOIN session_requests r
              ON r.organisation_id = e.organisation_id AND r.id = e.session_request_id
            WHERE r.customer_id = ${contact}) AS events,
          (SELECT count(*) FROM sessions WHERE id = ${s.sessionId}) AS sessions,
          (SELECT count(*) FROM session_versions WHERE session_id = ${s.sessionId}) AS versions,
          (SELECT count(*) FROM files WHERE id = ANY(${`{${s.reportIds.join(',')}}`}::uuid[])) AS reports`,
      ),
    );
    const dir = path.join(h.dataDir, 'files', org.organisationId);
    const stored = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    return {
      ...Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])),
      storedReports: s.reportIds.filter((id) => stored.includes(id)).length,
    };
  }

  async function contactWithHistory() {
    const contact = await createContact(h, org, { Voornaam: 'Erik', Email: 'erik@example.test' });
    // One action submitted twice (two versions, two reports), one still open.
    const submitted = await submittedSession(h, org, { template, contact, times: 2 });
    const open = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contact, questionListIds: [template] });
    expect(open.status).toBe(201);
    return { contact, submitted, openAction: open.body._id as string };
  }

  it('when the contact has a submitted session, then 409 names how many actions and sessions, and nothing is deleted', async () => {
    const { contact, submitted, openAction } = await contactWithHistory();
    const before = await footprint(contact, submitted);
    expect(before).toEqual({
      customers: 1,
      actions: 2,
      events: expect.any(Number),
      sessions: 1,
      versions: 2,
      reports: 2,
      storedReports: 2,
    });

    const res = await remove(contact);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      success: false,
      status: 409,
      error:
        'The contact has 2 actions and 1 submitted session: ask for them to be deleted with the contact (cascade=true)',
    });
    expect(res.body.details).toEqual([
      { field: 'sessionRequests.total', in: 'state', message: 'the contact has 2 actions', value: '2' },
      {
        field: 'sessionRequests',
        in: 'state',
        message: `action ${submitted.actionId} is the contact's`,
        value: submitted.actionId,
      },
      {
        field: 'sessionRequests',
        in: 'state',
        message: `action ${openAction} is the contact's`,
        value: openAction,
      },
      { field: 'sessions.total', in: 'state', message: 'the contact has 1 submitted session', value: '1' },
      {
        field: 'sessions',
        in: 'state',
        message: `session ${submitted.sessionId} was submitted by the contact`,
        value: submitted.sessionId,
      },
    ]);
    expect(await footprint(contact, submitted)).toEqual(before);
    expect((await h.api().get(`/api/v1/customers/${contact}`).set('x-api-key', org.adminKey)).status).toBe(
      200,
    );
  });

  it('when cascade=true (an erasure request), then the contact, actions, history, sessions, versions and reports are gone, bytes too; other contacts keep theirs', async () => {
    const { contact, submitted } = await contactWithHistory();
    const bystander = await submittedSession(h, org, { template });
    const bystanderBefore = await footprint(bystander.contact, bystander);

    const res = await remove(contact, '?cascade=true');
    expect(res.status).toBe(204);
    expect(await footprint(contact, submitted)).toEqual({
      customers: 0,
      actions: 0,
      events: 0,
      sessions: 0,
      versions: 0,
      reports: 0,
      storedReports: 0,
    });
    const report = await h
      .api()
      .get(`/api/v1/files/${submitted.reportIds[0]}`)
      .set('x-api-key', org.adminKey);
    expect(report.status).toBe(404);
    expect(await footprint(bystander.contact, bystander)).toEqual(bystanderBefore);
    expect(bystanderBefore).toMatchObject({ customers: 1, sessions: 1, reports: 1, storedReports: 1 });
  });

  it('when the contact uses an uploaded file for a quicksign, then with cascade the action goes and the upload stays (it is the organisation’s)', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Sara', Email: 'sara@example.test' });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', await samplePdf('contract'), 'contract.pdf');
    const action = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: upload.body._id, title: 'Contract' },
      });
    expect(action.status).toBe(201);
    const refused = await remove(contact);
    expect(refused.status).toBe(409);
    expect(refused.body.details[0]).toMatchObject({ field: 'sessionRequests.total', value: '1' });
    expect(refused.body.details).toContainEqual(
      expect.objectContaining({ field: 'sessions.total', value: '0' }),
    );

    expect((await remove(contact, '?cascade=true')).status).toBe(204);
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${action.body._id}`).set('x-api-key', org.adminKey)).status,
    ).toBe(404);
    expect(
      (await h.api().get(`/api/v1/files/${upload.body._id}`).set('x-api-key', org.adminKey)).status,
    ).toBe(200);
  });

  it('when another organisation asks with cascade=true, then 404 and nothing changes; a cascade that is not true/false is 400', async () => {
    const { contact, submitted } = await contactWithHistory();
    const before = await footprint(contact, submitted);
    const res = await remove(contact, '?cascade=true', other.adminKey);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, error: 'Customer not found' });
    const bad = await remove(contact, '?cascade=1');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'cascade', in: 'query' })]);
    expect(await footprint(contact, submitted)).toEqual(before);
  });
});

describe('the contact data record in the OpenAPI document', () => {
  const knownKeys = [
    'Voornaam',
    'Achternaam',
    'Email',
    'Telefoon',
    'Straat',
    'Huisnummer',
    'Postcode',
    'Gemeente',
  ];
  type Schema = {
    type?: unknown;
    properties?: Record<string, Schema>;
    required?: string[];
    additionalProperties?: unknown;
  };

  it('when read, then the known keys are optional string properties and any other key stays allowed', async () => {
    const res = await h.api().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const schemas = res.body.components.schemas as Record<string, Schema>;
    const shapes: [string, Schema | undefined, unknown][] = [
      ['CustomerData (create)', schemas.CustomerData, 'string'],
      ['Customer.data (answer)', schemas.Customer?.properties?.data, 'string'],
      [
        'UpdateCustomer.data (null removes a key)',
        schemas.UpdateCustomer?.properties?.data,
        ['string', 'null'],
      ],
    ];
    for (const [, shape, type] of shapes) {
      expect(shape?.type).toBe('object');
      expect(Object.keys(shape?.properties ?? {})).toEqual(knownKeys);
      for (const key of knownKeys) expect(shape?.properties?.[key]).toMatchObject({ type });
      expect(shape?.required).toBeUndefined();
      expect(shape?.additionalProperties).toEqual({ type });
    }
    expect(schemas.CustomerData?.properties?.Telefoon).toMatchObject({
      description: expect.stringContaining('kept as written'),
    });
  });
});
