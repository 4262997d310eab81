import { basicAuth, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
});
afterAll(() => h.close());

async function client(scopes = ['read']) {
  const res = await h
    .api()
    .post('/api/v1/admin/oauth/clients')
    .set('x-api-key', org.adminKey)
    .send({ name: 'Partner', grants: ['client_credentials'], scopes });
  expect(res.status).toBe(201);
  return res.body as { _id: string; clientId: string; clientSecret: string; serviceUserId: string };
}
const form = (path: string, body: Record<string, string>, auth?: string) => {
  const req = h.api().post(`/api/v1/auth/oauth/${path}`).type('form');
  if (auth) req.set('Authorization', auth);
  return req.send(body);
};
async function tokenOf(c: { clientId: string; clientSecret: string }) {
  const res = await form(
    'token',
    { grant_type: 'client_credentials' },
    basicAuth(c.clientId, c.clientSecret),
  );
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

describe('metadata (RFC 8414)', () => {
  it('when a client fetches the metadata document, then it names every endpoint, grant, scope and PKCE S256 under the issuer', async () => {
    const res = await h.api().get('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    const issuer = 'http://localhost:3000';
    expect(res.body).toEqual({
      issuer,
      authorization_endpoint: `${issuer}/api/v1/auth/oauth/authorize`,
      token_endpoint: `${issuer}/api/v1/auth/oauth/token`,
      revocation_endpoint: `${issuer}/api/v1/auth/oauth/revoke`,
      introspection_endpoint: `${issuer}/api/v1/auth/oauth/introspect`,
      scopes_supported: ['read', 'create', 'update', 'delete', 'all'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    });
    // The OpenAPI document declares the same two flows, for generated clients.
    const doc = (await h.api().get('/api/v1/openapi.json')).body;
    expect(doc.components.securitySchemes.OAuth2.flows).toEqual({
      clientCredentials: {
        tokenUrl: '/api/v1/auth/oauth/token',
        scopes: expect.objectContaining({ all: expect.any(String) }),
      },
      authorizationCode: {
        authorizationUrl: '/api/v1/auth/oauth/authorize',
        tokenUrl: '/api/v1/auth/oauth/token',
        refreshUrl: '/api/v1/auth/oauth/token',
        scopes: expect.objectContaining({ read: expect.any(String) }),
      },
    });
  });
});

describe('introspection (RFC 7662) and revocation (RFC 7009)', () => {
  it('when a client introspects its token, then it learns scope, subject and expiry; another client’s, an unknown or an expired token is inactive', async () => {
    const a = await client(['read', 'create']);
    const b = await client();
    const token = await tokenOf(a);
    const mine = await form('introspect', { token }, basicAuth(a.clientId, a.clientSecret));
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    const now = Math.floor(h.clock.now().getTime() / 1000);
    expect(mine.body).toEqual({
      active: true,
      scope: 'read create',
      client_id: a.clientId,
      token_type: 'Bearer',
      iat: now,
      exp: now + 28800,
      sub: a.serviceUserId,
      iss: 'http://localhost:3000',
      organisation_id: org.organisationId,
    });
    expect((await form('introspect', { token }, basicAuth(b.clientId, b.clientSecret))).body).toEqual({
      active: false,
    });
    expect(
      (
        await form('introspect', {
          token: 'adt_0000000000000000000000000000000000000000',
          client_id: a.clientId,
          client_secret: a.clientSecret,
        })
      ).body,
    ).toEqual({ active: false });
    const wrong = await form('introspect', { token }, basicAuth(a.clientId, 'adcs_nope'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, error: 'invalid_client', code: 401 });
    expect(wrong.headers['www-authenticate']).toContain('Basic');
    const missing = await form('introspect', {}, basicAuth(a.clientId, a.clientSecret));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    h.clock.advance(28_801_000);
    expect((await form('introspect', { token }, basicAuth(a.clientId, a.clientSecret))).body).toEqual({
      active: false,
    });
  });

  it('when a client revokes its token, then the next request with it is refused; another client cannot revoke it and learns nothing', async () => {
    const a = await client();
    const b = await client();
    const token = await tokenOf(a);
    const call = () => h.api().get('/api/v1/customers').set('Authorization', `Bearer ${token}`);
    expect((await call()).status).toBe(200);
    const foreign = await form('revoke', { token }, basicAuth(b.clientId, b.clientSecret));
    expect(foreign.status).toBe(200);
    expect((await call()).status).toBe(200);
    const revoked = await form(
      'revoke',
      { token, token_type_hint: 'access_token' },
      basicAuth(a.clientId, a.clientSecret),
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({});
    const after = await call();
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(after.body.error).toContain('revoked');
    expect(
      (await form('revoke', { token: 'not-a-token' }, basicAuth(a.clientId, a.clientSecret))).status,
    ).toBe(200);
  });
});

describe('one client authentication per request (RFC 6749 §2.3)', () => {
  it.each(['revoke', 'introspect'])(
    'when %s gets HTTP Basic and a client_secret in the form, or another client’s client_id there, then invalid_request and the token is untouched; its own client_id beside Basic is fine',
    async (path) => {
      const a = await client();
      const b = await client();
      const token = await tokenOf(a);
      const basic = basicAuth(a.clientId, a.clientSecret);
      for (const extra of [
        { client_secret: a.clientSecret },
        { client_id: a.clientId, client_secret: a.clientSecret },
        { client_id: b.clientId },
        { client_id: b.clientId, client_secret: b.clientSecret },
      ] as Record<string, string>[]) {
        const res = await form(path, { token, ...extra }, basic);
        expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
        expect(res.body).toEqual({
          success: false,
          error: 'invalid_request',
          error_description: expect.any(String),
          code: 400,
          requestId: expect.any(String),
        });
      }
      // Nothing was revoked by the refused requests.
      expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${token}`)).status).toBe(
        200,
      );
      const own = await form(path, { token, client_id: a.clientId }, basic);
      expect(own.status).toBe(200);
      if (path === 'introspect') expect(own.body).toMatchObject({ active: true, client_id: a.clientId });
      else
        expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${token}`)).status).toBe(
          401,
        );
    },
  );
});

describe('administrators and a client’s tokens', () => {
  it('when tokens are used, then the administrator sees each with whom it acts for and its last use, and can revoke one or all', async () => {
    const c = await client();
    const first = await tokenOf(c);
    const second = await tokenOf(c);
    await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${first}`);
    const list = await h
      .api()
      .get(`/api/v1/admin/oauth/clients/${c._id}/tokens`)
      .set('x-api-key', org.adminKey);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    const used = list.body.tokens.filter((t: { lastUsedAt: string | null }) => t.lastUsedAt !== null);
    expect(used).toEqual([
      {
        _id: expect.any(String),
        kind: 'access',
        userId: c.serviceUserId,
        userName: 'Partner (OAuth client)',
        scopes: ['read'],
        createdAt: h.clock.now().toISOString(),
        expiresAt: new Date(h.clock.now().getTime() + 28_800_000).toISOString(),
        lastUsedAt: h.clock.now().toISOString(),
      },
    ]);
    const one = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${c._id}/tokens/${used[0]._id}/revoke`)
      .set('x-api-key', org.adminKey);
    expect(one.body).toEqual({ revoked: 1 });
    expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${first}`)).status).toBe(401);
    expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${second}`)).status).toBe(
      200,
    );
    const again = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${c._id}/tokens/${used[0]._id}/revoke`)
      .set('x-api-key', org.adminKey);
    expect(again.status).toBe(404);
    const all = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${c._id}/revoke-tokens`)
      .set('x-api-key', org.adminKey);
    expect(all.body).toEqual({ revoked: 1 });
    expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${second}`)).status).toBe(
      401,
    );
    const empty = await h
      .api()
      .get(`/api/v1/admin/oauth/clients/${c._id}/tokens`)
      .set('x-api-key', org.adminKey);
    expect(empty.body).toEqual({
      tokens: [],
      total: 0,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
  });

  it('when an administrator opens a client’s page, then its tokens are listed and one is revoked with a button', async () => {
    const c = await client();
    const token = await tokenOf(c);
    const admin = await staffUser(h, org, ['administrator'], 'Iris Admin');
    const { agent } = await signedIn(h, admin.email);
    const integrations = await agent.get('/staff/integrations');
    expect(integrations.text).toContain(`href="/staff/integrations/clients/${c._id}"`);
    const page = await agent.get(`/staff/integrations/clients/${c._id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Live tokens (1)');
    expect(page.text).toContain('Partner (OAuth client)');
    const action = /action="(\/staff\/integrations\/clients\/[^"]+\/tokens\/[^"]+\/revoke)"/.exec(
      page.text,
    )?.[1] as string;
    const revoked = await agent
      .post(action)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(revoked.status).toBe(303);
    const after = await agent.get(revoked.headers.location as string);
    expect(after.text).toContain('The token was revoked');
    expect(after.text).toContain('No live token.');
    expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });
});

describe('malformed requests to the machine endpoints', () => {
  it.each(['token', 'revoke', 'introspect'])(
    'when %s gets a NUL, a nested or repeated field, or a body that is not a form, then each answer is an RFC 6749 error in the API shape with its requestId',
    async (path) => {
      const c = await client();
      const auth = basicAuth(c.clientId, c.clientSecret);
      const raw = (body: string, type = 'application/x-www-form-urlencoded') =>
        h
          .api()
          .post(`/api/v1/auth/oauth/${path}`)
          .set('Authorization', auth)
          .set('content-type', type)
          .send(body);
      const answers = [
        await raw('grant_type=client_credentials&token=a%00b&scope=re%00ad'),
        await raw('grant_type=client_credentials&token=a&token=b'),
        await raw('token[x]=1&grant_type[y]=2'),
        await raw('{"token":"x"}', 'application/json'),
        await raw('token=x', 'text/plain'),
      ];
      for (const res of answers) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toEqual({
          success: false,
          error: expect.stringMatching(
            /^(invalid_request|invalid_client|invalid_grant|unsupported_grant_type)$/,
          ),
          error_description: expect.any(String),
          code: res.status,
          requestId: expect.any(String),
        });
      }
      // The NUL is refused by name, not passed on.
      expect(answers[0]!.body.error_description).toMatch(/token|scope/);
    },
  );
});
