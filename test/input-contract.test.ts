import { createContact, createOrg, createTemplate, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let template: string;
let contact: string;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  template = await createTemplate(h, org);
  contact = await createContact(h, org, { Voornaam: 'An', Email: 'an@example.test' });
});
afterAll(() => h.close());

const api = () => h.api();
const key = () => org.adminKey;
const customerCount = async () =>
  (await api().get('/api/v1/customers').set('x-api-key', key())).body.total as number;
const createAction = async () =>
  (
    await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({ type: 'qlist', customerId: contact, questionListIds: [template] })
  ).body as { _id: string; status: string };
const statusOf = async (id: string) =>
  (await api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', key())).body.status as string;

describe('hostile object keys are plain data', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])(
    'when a contact data key is named %s, then it is stored and read back as an ordinary key',
    async (name) => {
      const res = await api()
        .post('/api/v1/customers')
        .set('x-api-key', key())
        .send({ data: { Voornaam: 'Jan', [name]: 'a value' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ Voornaam: 'Jan', [name]: 'a value' });
      const read = await api().get(`/api/v1/customers/${res.body._id}`).set('x-api-key', key());
      expect(read.body.data[name]).toBe('a value');
      const patched = await api()
        .patch(`/api/v1/customers/${res.body._id}`)
        .set('x-api-key', key())
        .send({ data: { [name]: null } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toEqual({ Voornaam: 'Jan' });
    },
  );

  it.each([
    ['in contact data', '{"data":{"Voornaam":"Jan","__proto__":"x"}}', 'data.__proto__'],
    ['at the top', '{"__proto__":{"admin":true},"data":{"Voornaam":"Jan"}}', '__proto__'],
    [
      'in a nested value',
      '{"data":{"Voornaam":"Jan"},"thirdpartyId":{"__proto__":1}}',
      'thirdpartyId.__proto__',
    ],
  ])(
    'when a __proto__ key is sent %s, then 400 names it and nothing is stored',
    async (_where, body, field) => {
      const before = await customerCount();
      const res = await api()
        .post('/api/v1/customers')
        .set('x-api-key', key())
        .set('content-type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field, in: 'body', message: 'is not allowed as a field name' }]);
      expect(await customerCount()).toBe(before);
    },
  );

  it('when a query parameter is named constructor or __proto__, then 400 names it', async () => {
    const ctor = await api().get('/api/v1/customers?constructor=1').set('x-api-key', key());
    expect(ctor.status).toBe(400);
    expect(ctor.body.details).toEqual([
      { field: 'constructor', in: 'query', message: 'is not a known query parameter' },
    ]);
    const proto = await api().get('/api/v1/customers?__proto__=2').set('x-api-key', key());
    expect(proto.status).toBe(400);
    expect(proto.body.details).toEqual([
      { field: '__proto__', in: 'query', message: 'is not allowed as a field name' },
    ]);
  });
});

describe('every route reads its body with the same rules', () => {
  it('when reopen gets a text/plain body, then 415 and the action is unchanged', async () => {
    const action = await createAction();
    const res = await api()
      .post(`/api/v1/sessionrequests/${action._id}/reopen`)
      .set('x-api-key', key())
      .set('content-type', 'text/plain')
      .send('notificationEmail=true');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, status: 415 });
    expect(await statusOf(action._id)).toBe('created');
  });

  it('when deactivate gets malformed JSON, then 400 and the action stays open', async () => {
    const action = await createAction();
    const res = await api()
      .post(`/api/v1/sessionrequests/${action._id}/deactivate`)
      .set('x-api-key', key())
      .set('content-type', 'application/json')
      .send('{"reason": ');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: '(body)', in: 'body', message: 'is not valid JSON' }]);
    expect(await statusOf(action._id)).toBe('created');
  });

  it('when deactivate gets unknown fields, then 400 names them and the action stays open', async () => {
    const action = await createAction();
    const res = await api()
      .post(`/api/v1/sessionrequests/${action._id}/deactivate`)
      .set('x-api-key', key())
      .send({ reason: 'x', force: true });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['force', 'reason']);
    expect(await statusOf(action._id)).toBe('created');
  });

  it('when deactivate gets no body or an empty object, then it withdraws the action', async () => {
    const a = await createAction();
    const b = await createAction();
    expect(
      (await api().post(`/api/v1/sessionrequests/${a._id}/deactivate`).set('x-api-key', key())).status,
    ).toBe(200);
    const withEmpty = await api()
      .post(`/api/v1/sessionrequests/${b._id}/deactivate`)
      .set('x-api-key', key())
      .send({});
    expect(withEmpty.status).toBe(200);
    expect([await statusOf(a._id), await statusOf(b._id)]).toEqual(['deactivated', 'deactivated']);
  });

  it('when a +json content type carries malformed JSON to a DELETE, then 400 and nothing is deleted', async () => {
    const id = await createContact(h, org, { Voornaam: 'Keep' });
    const res = await api()
      .delete(`/api/v1/customers/${id}`)
      .set('x-api-key', key())
      .set('content-type', 'application/vnd.x+json')
      .send('{garbage');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: '(body)', in: 'body', message: 'is not valid JSON' }]);
    expect((await api().get(`/api/v1/customers/${id}`).set('x-api-key', key())).status).toBe(200);
  });

  it('when a body is sent as application/merge-patch+json, then it is read as JSON', async () => {
    const res = await api()
      .post('/api/v1/customers')
      .set('x-api-key', key())
      .set('content-type', 'application/merge-patch+json')
      .send(JSON.stringify({ data: { Voornaam: 'Merge' } }));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ Voornaam: 'Merge' });
  });

  it('when a DELETE carries a body with fields, then 400 and nothing is deleted', async () => {
    const id = await createContact(h, org, { Voornaam: 'Keep' });
    const res = await api().delete(`/api/v1/customers/${id}`).set('x-api-key', key()).send({ confirm: true });
    expect(res.status).toBe(400);
    expect((await api().get(`/api/v1/customers/${id}`).set('x-api-key', key())).status).toBe(200);
  });
});

describe('unknown and repeated query parameters', () => {
  it.each([
    ['/api/v1/customers?portfolio=abc', 'portfolio'],
    ['/api/v1/sessionrequests?state=completed', 'state'],
    ['/api/v1/questionlists?active=false', 'active'],
    ['/api/v1/sessions?request=1', 'request'],
    [`/api/v1/customers/${'01900000-0000-7000-8000-000000000000'}?expand=all`, 'expand'],
  ])(
    'when %s is asked, then 400 names the unknown parameter instead of an unfiltered answer',
    async (url, name) => {
      const res = await api().get(url).set('x-api-key', key());
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { field: name, in: 'query', message: 'is not a known query parameter' },
      ]);
    },
  );

  it('when a one-value parameter is repeated, then 400 says so plainly', async () => {
    const res = await api().get('/api/v1/customers?limit=1&limit=2').set('x-api-key', key());
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'limit', in: 'query', message: 'is given more than once: give it once' },
    ]);
    expect(res.body.error).not.toMatch(/NaN/);
  });
});

describe('one bounded error contract', () => {
  it('when 20,000 unknown fields are sent, then the answer stays small and says how many more there were', async () => {
    const body: Record<string, unknown> = { data: { Voornaam: 'A' } };
    for (let i = 0; i < 20_000; i++) body[`field${i}`] = i;
    const res = await api().post('/api/v1/customers').set('x-api-key', key()).send(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(21);
    expect(res.body.details[20]).toEqual({
      field: '(body)',
      in: 'body',
      message: '19980 more problems are not listed',
    });
    expect(JSON.stringify(res.body).length).toBeLessThan(4_000);
  });

  it('when 40 fields are wrong, then the message and the last entry count all 40', async () => {
    const data: Record<string, unknown> = { Voornaam: 'A' };
    for (let i = 0; i < 40; i++) data[`k${i}`] = i;
    const res = await api().post('/api/v1/customers').set('x-api-key', key()).send({ data });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(21);
    expect(res.body.details[20].message).toBe('20 more problems are not listed');
    expect(res.body.error).toMatch(/; and 35 more problems$/);
  });

  it('when a number is far too large, then one plain bound is named', async () => {
    const res = await api().get('/api/v1/customers?page=99999999999999999999').set('x-api-key', key());
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'page', in: 'query', message: 'must be at most 1000000' }]);
  });

  it('when a 409 is answered, then details say what state was found in the same shape as field errors', async () => {
    const action = await createAction();
    await api().post(`/api/v1/sessionrequests/${action._id}/deactivate`).set('x-api-key', key());
    const res = await api().post(`/api/v1/sessionrequests/${action._id}/reopen`).set('x-api-key', key());
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      status: 409,
      error: expect.any(String),
      details: [{ field: 'status', in: 'state', message: 'is deactivated', value: 'deactivated' }],
      requestId: expect.any(String),
    });
  });

  it.each([
    [
      'a list that is too long',
      { data: { Voornaam: 'A' }, thirdpartyId: ['x'] },
      'thirdpartyId',
      'must be a string, not a list',
    ],
    [
      'a number for a string',
      { data: { Voornaam: 'A' }, thirdpartyId: 5 },
      'thirdpartyId',
      'must be a string, not a number',
    ],
    [
      'an over-long string',
      { data: { Voornaam: 'x'.repeat(2001) } },
      'data.Voornaam',
      'must have at most 2000 characters',
    ],
  ])('when the body has %s, then the message is in plain words', async (_what, body, field, message) => {
    const res = await api().post('/api/v1/customers').set('x-api-key', key()).send(body);
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ field, in: 'body', message });
  });
});
