import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness({ BODY_LIMIT: '2kb' });
  org = await createOrg(h);
});
afterAll(() => h.close());

const postRaw = (body: string, key = org.adminKey) =>
  h.api().post('/api/v1/customers').set('x-api-key', key).set('content-type', 'application/json').send(body);
const total = async () => (await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).body.total;

describe('error pipeline', () => {
  it('when the JSON is malformed, then 400 in the spec shape', async () => {
    const res = await postRaw('{"data": {"Voornaam": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'Malformed JSON in request body',
      status: 400,
      details: [{ field: '(body)', in: 'body', message: 'is not valid JSON' }],
      requestId: expect.any(String),
    });
  });

  it.each([
    ['a NUL in a value', '{"data":{"Voornaam":"Ja\\u0000n"}}', 'data.Voornaam', /NUL/],
    [
      'a NUL in a key',
      '{"data":{"Voor\\u0000naam":"Jan"}}',
      'data.Voor\u0000naam',
      /field name contains a NUL/,
    ],
    [
      'a lone high surrogate',
      '{"data":{"Voornaam":"Jan\\ud800"}}',
      'data.Voornaam',
      /unpaired UTF-16 surrogate/,
    ],
    [
      'a lone low surrogate',
      '{"thirdpartyId":"\\udc00x","data":{"Voornaam":"Jan"}}',
      'thirdpartyId',
      /unpaired/,
    ],
  ])(
    'when the body has %s, then 400 names the field and nothing is stored',
    async (_what, body, field, message) => {
      const before = await total();
      const res = await postRaw(body);
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe(field);
      expect(res.body.details[0].message).toMatch(message);
      expect(await total()).toBe(before);
    },
  );

  it('when a query string holds a NUL, then 400 rather than a database error', async () => {
    const res = await h.api().get('/api/v1/customers?search=a%00b').set('x-api-key', org.adminKey);
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('search');
  });

  it('when a valid emoji (a proper surrogate pair) is sent, then it is stored as is', async () => {
    const res = await postRaw('{"data":{"Voornaam":"Jan \\ud83d\\ude00"}}');
    expect(res.status).toBe(201);
    expect(res.body.data.Voornaam).toBe('Jan 😀');
  });

  it('when unknown fields are sent, then they are refused by name and nothing is stored', async () => {
    const before = await total();
    const res = await postRaw(JSON.stringify({ data: { Voornaam: 'A' }, organisationId: 'x', _id: 'y' }));
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['_id', 'organisationId']);
    expect(await total()).toBe(before);
  });

  it('when the body is over the limit, then 413 in the spec shape', async () => {
    const res = await postRaw(JSON.stringify({ data: { Voornaam: 'x'.repeat(3000) } }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      success: false,
      error: 'Request body too large: the limit is 2048 bytes',
      status: 413,
      details: [],
      requestId: expect.any(String),
    });
  });

  it('when the body is not JSON, then 415 says what to send, and nothing is stored', async () => {
    const before = await total();
    const res = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .set('content-type', 'text/plain')
      .send('{"data":{"Voornaam":"A"}}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      success: false,
      status: 415,
      error: 'Unsupported Content-Type "text/plain": send the body as application/json',
      details: [],
      requestId: expect.any(String),
    });
    expect(await total()).toBe(before);
  });

  it('when no body is sent where one is required, then 400 says a JSON body is required', async () => {
    const res = await h.api().post('/api/v1/customers').set('x-api-key', org.adminKey);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: '(body)', in: 'body', message: 'a JSON body is required (Content-Type: application/json)' },
    ]);
  });

  it('when the route is unknown, then 404 in the spec shape', async () => {
    const res = await h.api().get('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: 'No route for GET /api/v1/nope',
      status: 404,
      details: [],
      requestId: expect.any(String),
    });
  });

  it('when a path does not take the method, then 405 names the methods it takes, in Allow and in the body', async () => {
    const list = await h.api().delete('/api/v1/customers').set('x-api-key', org.adminKey);
    expect(list.status).toBe(405);
    expect(list.headers.allow).toBe('GET, HEAD, POST');
    expect(list.body).toEqual({
      success: false,
      error: 'Method DELETE is not allowed on /api/v1/customers: it takes GET, HEAD, POST',
      status: 405,
      details: [],
      requestId: expect.any(String),
    });
    const one = await h.api().put(`/api/v1/customers/${org.adminId}`).set('x-api-key', org.adminKey);
    expect(one.status).toBe(405);
    expect(one.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    // Without credentials too: which methods a path takes is in the public document anyway.
    expect((await h.api().patch('/health')).headers.allow).toBe('GET, HEAD');
    // A path nobody documents stays a 404.
    expect((await h.api().delete('/api/v1/nothing-here')).status).toBe(404);
  });

  it('when the client sends X-Request-Id, then it is echoed; otherwise one is made', async () => {
    const echoed = await h.api().get('/health').set('X-Request-Id', 'crm-trace-42');
    expect(echoed.headers['x-request-id']).toBe('crm-trace-42');
    const made = await h.api().get('/api/v1/nope');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.requestId).toBe(made.headers['x-request-id']);
    const unsafe = await h.api().get('/health').set('X-Request-Id', 'a b<script>');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('request logging', () => {
  it('when a request is served, then one line records request id, organisation, user and status, and no key', async () => {
    h.logs.length = 0;
    const res = await h
      .api()
      .get('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .set('X-Request-Id', 'log-test-1');
    expect(res.status).toBe(200);
    const lines = h.logs.filter((l) => (l.req as { id?: string } | undefined)?.id === 'log-test-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      organisationId: org.organisationId,
      userId: org.adminId,
      res: { statusCode: 200 },
      req: { method: 'GET', url: '/api/v1/customers' },
    });
    expect(JSON.stringify(h.logs)).not.toContain(org.adminKey);
  });

  it('when an unexpected error happens, then 500 hides internals and the log keeps them', async () => {
    const broken = await startHarness();
    const brokenOrg = await createOrg(broken);
    try {
      // Authenticate once so the key is cached, then take the database away.
      expect((await broken.api().get('/api/v1/customers').set('x-api-key', brokenOrg.adminKey)).status).toBe(
        200,
      );
      await broken.database.close();
      const res = await broken.api().get('/api/v1/customers').set('x-api-key', brokenOrg.adminKey);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        success: false,
        error: 'Internal server error',
        status: 500,
        details: [],
        requestId: expect.any(String),
      });
      const logged = broken.logs.find((l) => l.msg === 'unexpected error');
      expect(logged?.err).toBeDefined();
    } finally {
      await new Promise<void>((resolve) => broken.server.close(() => resolve()));
    }
  });
});

describe('GET /health', () => {
  it('when the database answers, then 200 with exactly the four fields and no key needed', async () => {
    h.clock.set('2026-05-05T10:00:00.000Z');
    const res = await h.api().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      timestamp: '2026-05-05T10:00:00.000Z',
      uptime: expect.any(Number),
      database: { postgresql: 'connected' },
    });
    expect(Number.isInteger(res.body.uptime)).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when the database is unreachable, then 503 with status error and no details', async () => {
    const down = await startHarness();
    try {
      await down.database.close();
      const res = await down.api().get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 'error',
        timestamp: expect.any(String),
        uptime: expect.any(Number),
        database: { postgresql: 'disconnected' },
      });
    } finally {
      await new Promise<void>((resolve) => down.server.close(() => resolve()));
    }
  });
});
