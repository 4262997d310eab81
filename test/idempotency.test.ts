import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { samplePdf } from './support/binary';
import {
  createContact,
  createOrg,
  createTemplate,
  createUserWithKey,
  type TestOrg,
  tenantRows,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { until } from './support/until';

let h: Harness;
let org: TestOrg;
let template: string;
let contact: string;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Idem');
  template = await createTemplate(h, org);
  contact = await createContact(h, org, { Voornaam: 'An', Email: 'an@example.test' });
});
afterAll(() => h.close());

const count = async (table: string, where = sql`TRUE`) => {
  const [row] = await tenantRows<{ n: number }>(
    h,
    org.organisationId,
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`,
  );
  return row?.n ?? 0;
};

const post = (path: string, key: string | null, body: object, apiKey = org.adminKey) => {
  const r = h.api().post(path).set('x-api-key', apiKey);
  return (key === null ? r : r.set('Idempotency-Key', key)).send(body);
};

describe('Idempotency-Key on POST', () => {
  it('when 20 identical requests to create and send an action arrive at once with one key, then one action is created and sent, and all 20 get the identical answer', async () => {
    const key = randomUUID();
    const body = {
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
      notificationEmail: { send: true },
    };
    const before = { actions: await count('session_requests'), jobs: await count('jobs') };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('/api/v1/sessionrequests', key, body)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const texts = new Set(answers.map((a) => a.text));
    expect(texts.size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await count('session_requests')).toBe(before.actions + 1);
    const id = answers[0]?.body._id as string;
    const jobs = await tenantRows<{ kind: string }>(
      h,
      org.organisationId,
      sql`SELECT kind FROM jobs WHERE subject_id = ${id}::uuid ORDER BY kind`,
    );
    expect(jobs.length).toBeGreaterThan(0);
    expect(await count('jobs')).toBe(before.jobs + jobs.length);
    // The same kinds of job, once each: the invitation is sent once.
    expect(new Set(jobs.map((j) => j.kind)).size).toBe(jobs.length);
  });

  it('when a contact is created again with the same key and the same fields in another order, then the first answer comes back and no second contact exists', async () => {
    const key = randomUUID();
    const first = await post('/api/v1/customers', key, {
      data: { Voornaam: 'Bert', Email: 'bert@example.test' },
    });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('/api/v1/customers', key, {
      data: { Email: 'bert@example.test', Voornaam: 'Bert' },
    });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await count('customers', sql`data->>'Voornaam' = 'Bert'`)).toBe(1);
  });

  it('when the same key comes with another body or to another route, then 422 names the header and nothing is created', async () => {
    const key = randomUUID();
    await post('/api/v1/customers', key, { data: { Voornaam: 'Cas' } });
    const changed = await post('/api/v1/customers', key, { data: { Voornaam: 'Cis' } });
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({
      success: false,
      status: 422,
      details: [
        { field: 'Idempotency-Key', in: 'header', message: 'was used with another request body or path' },
      ],
    });
    expect(changed.body.error).toMatch(
      /^This Idempotency-Key was used for another request \(POST \/api\/v1\/customers/,
    );
    const elsewhere = await post('/api/v1/portfolios', key, { name: 'Cas' });
    expect(elsewhere.status).toBe(422);
    expect(await count('customers', sql`data->>'Voornaam' = 'Cis'`)).toBe(0);
    expect(await count('portfolios', sql`name = 'Cas'`)).toBe(0);
  });

  it('when another credential uses the same key text, then it is its own operation', async () => {
    const key = 'shared-key-1';
    const colleague = await createUserWithKey(h, org, ['adviser']);
    const a = await post('/api/v1/customers', key, { data: { Voornaam: 'Dirk' } });
    const b = await post('/api/v1/customers', key, { data: { Voornaam: 'Dirk' } }, colleague.key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body._id).not.toBe(a.body._id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when a request fails, then nothing is stored and the same key may be sent again; after 24 hours a key is new again', async () => {
    const key = randomUUID();
    const refused = await post('/api/v1/sessionrequests', key, {
      type: 'qlist',
      customerId: '01900000-0000-7000-8000-000000000000',
      questionListIds: [template],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].field).toBe('customerId');
    const fixed = await post('/api/v1/sessionrequests', key, {
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
    });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();

    const day = randomUUID();
    const first = await post('/api/v1/customers', day, { data: { Voornaam: 'Eva' } });
    h.clock.advance(24 * 60 * 60_000 - 1000);
    expect((await post('/api/v1/customers', day, { data: { Voornaam: 'Eva' } })).body._id).toBe(
      first.body._id,
    );
    h.clock.advance(2000);
    const later = await post('/api/v1/customers', day, { data: { Voornaam: 'Eva' } });
    expect(later.status).toBe(201);
    expect(later.body._id).not.toBe(first.body._id);
  });

  it('when reopen is retried with its key, then the retry gets the first 200 instead of a 409', async () => {
    const created = await post('/api/v1/sessionrequests', null, {
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
    });
    const id = created.body._id as string;
    await tenantRows(
      h,
      org.organisationId,
      sql`UPDATE session_requests SET status = 'completed' WHERE id = ${id}::uuid RETURNING id`,
    );
    const key = randomUUID();
    const first = await post(`/api/v1/sessionrequests/${id}/reopen`, key, {});
    expect(first.status).toBe(200);
    const retry = await post(`/api/v1/sessionrequests/${id}/reopen`, key, {});
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    const without = await post(`/api/v1/sessionrequests/${id}/reopen`, null, {});
    expect(without.status).toBe(409);
  });

  it('when an upload is retried with its key, then one file is stored; another file with that key is 422', async () => {
    const key = randomUUID();
    const pdf = await samplePdf('Idempotent contract');
    const upload = (bytes: Buffer, name = 'contract.pdf') =>
      h
        .api()
        .post('/api/v1/files')
        .set('x-api-key', org.adminKey)
        .set('Idempotency-Key', key)
        .attach('file', bytes, name);
    const before = await count('files');
    const first = await upload(pdf);
    const again = await upload(pdf);
    expect(first.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await count('files')).toBe(before + 1);
    const other = await upload(await samplePdf('Another contract'));
    expect(other.status).toBe(422);
    expect(await count('files')).toBe(before + 1);
  });

  it('when the worker runs in the same process, then the jobs of an idempotent request run after it (no request’s transaction is carried into them)', async () => {
    const w = await startHarness({}, { startWorker: true });
    try {
      const o = await createOrg(w);
      const t = await createTemplate(w, o);
      const c = await createContact(w, o, { Voornaam: 'Jan', Email: 'jan@example.test' });
      const res = await w
        .api()
        .post('/api/v1/sessionrequests')
        .set('x-api-key', o.adminKey)
        .set('Idempotency-Key', randomUUID())
        .send({ type: 'qlist', customerId: c, questionListIds: [t], notificationEmail: { send: true } });
      expect(res.status).toBe(201);
      await until(async () => {
        const rows = await tenantRows<{ status: string }>(
          w,
          o.organisationId,
          sql`SELECT status FROM jobs WHERE subject_id = ${res.body._id}::uuid`,
        );
        return rows.length > 0 && rows.every((r) => r.status === 'done');
      });
      const later = await w
        .api()
        .post('/api/v1/customers')
        .set('x-api-key', o.adminKey)
        .set('Idempotency-Key', randomUUID())
        .send({ data: { Voornaam: 'Na' } });
      expect(later.status).toBe(201);
    } finally {
      await w.close();
    }
  });

  it('when the key is empty, too long, not ASCII or holds a space (as two keys given at once arrive: `a, b`), then 400 names the header', async () => {
    for (const bad of ['', 'x'.repeat(256), 'sleutel-é', 'a b']) {
      const res = await h
        .api()
        .post('/api/v1/customers')
        .set('x-api-key', org.adminKey)
        .set('Idempotency-Key', bad)
        .send({ data: { Voornaam: 'Frank' } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'Idempotency-Key', in: 'header' })]);
    }
    expect(await count('customers', sql`data->>'Voornaam' = 'Frank'`)).toBe(0);
  });
});
