import { basicAuth, createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

async function client(o: TestOrg, scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await h
    .api()
    .post('/api/v1/admin/oauth/clients')
    .set('x-api-key', o.adminKey)
    .send({ name: `Partner ${scopes.join('+')}`, grants: ['client_credentials'], scopes, ...extra });
  expect(res.status).toBe(201);
  return res.body as { _id: string; clientId: string; clientSecret: string; serviceUserId: string };
}

const token = (form: Record<string, string>, authorization?: string) => {
  const req = h.api().post('/api/v1/auth/oauth/token').type('form');
  if (authorization) req.set('Authorization', authorization);
  return req.send(form);
};

describe('client credentials → bearer token → API', () => {
  it('when a client asks with HTTP Basic, then it gets a spec 2.6 token; with scope read it can read and is refused writing, naming create', async () => {
    const c = await client(org, ['read']);
    const res = await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^adt_[0-9A-Za-z]{40}$/),
      expires_in: 28800,
      scope: 'read',
    });
    const bearer = `Bearer ${res.body.access_token}`;
    const read = await h.api().get('/api/v1/customers').set('Authorization', bearer);
    expect(read.status).toBe(200);
    const write = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', bearer)
      .send({ data: { Email: 'x@example.test' } });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      success: false,
      code: 403,
      error: expect.stringContaining("'create'"),
    });
    expect(write.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="create"');
  });

  it('when the client authenticates in the form and asks for more than it may, then it gets the intersection; nothing in common is invalid_scope', async () => {
    const c = await client(org, ['read', 'create']);
    const res = await token({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: 'create delete',
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('create');
    const none = await token({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: 'delete',
    });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ success: false, error: 'invalid_scope', code: 400 });
  });

  it('when the secret is wrong, the client unknown or disabled, the grant unsupported or the body not a form, then the RFC error comes in the API’s shape', async () => {
    const c = await client(org, ['read']);
    const wrong = await token(
      { grant_type: 'client_credentials' },
      // The last character changed (to one it is not: a random secret may end in x).
      basicAuth(c.clientId, `${c.clientSecret.slice(0, -1)}${c.clientSecret.endsWith('x') ? 'y' : 'x'}`),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      success: false,
      error: 'invalid_client',
      error_description: expect.any(String),
      code: 401,
      requestId: expect.any(String),
    });
    expect(wrong.headers['www-authenticate']).toContain('Basic');
    const unknown = await token({
      grant_type: 'client_credentials',
      client_id: 'adc_000000000000000000000000',
      client_secret: 'x',
    });
    expect(unknown.body.error).toBe('invalid_client');
    const password = await token(
      { grant_type: 'password', username: 'a', password: 'b' },
      basicAuth(c.clientId, c.clientSecret),
    );
    expect(password.status).toBe(400);
    expect(password.body.error).toBe('unsupported_grant_type');
    const implicit = await token({ grant_type: 'implicit' }, basicAuth(c.clientId, c.clientSecret));
    expect(implicit.status).toBe(400);
    expect(implicit.body.error).toBe('unsupported_grant_type');
    const json = await h.api().post('/api/v1/auth/oauth/token').send({ grant_type: 'client_credentials' });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    await h.api().post(`/api/v1/admin/oauth/clients/${c._id}/disable`).set('x-api-key', org.adminKey);
    const disabled = await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret));
    expect(disabled.body.error).toBe('invalid_client');
  });

  it('when a form repeats fields, then the first one sent is named (unknown fields included), and a repeated grant_type too', async () => {
    const c = await client(org, ['read']);
    const send = (form: string) =>
      h
        .api()
        .post('/api/v1/auth/oauth/token')
        .type('form')
        .set('Authorization', basicAuth(c.clientId, c.clientSecret))
        .send(form);
    const foo = await send('grant_type=client_credentials&foo=1&scope=read&foo=2&scope=read');
    expect(foo.status).toBe(400);
    expect(foo.body).toMatchObject({ error: 'invalid_request', error_description: 'foo must be sent once' });
    const grant = await send('grant_type=client_credentials&grant_type=client_credentials');
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'grant_type must be sent once',
    });
  });

  it('when a client authenticates with HTTP Basic and sends a client_secret in the form too, or names another client there, then invalid_request (RFC 6749 §2.3) and no token; its own client_id beside Basic is fine', async () => {
    const c = await client(org, ['read']);
    const d = await client(org, ['read']);
    const basic = basicAuth(c.clientId, c.clientSecret);
    const liveTokens = async () =>
      (await h.api().get(`/api/v1/admin/oauth/clients/${c._id}/tokens`).set('x-api-key', org.adminKey)).body
        .total as number;
    const twice = [
      { client_secret: c.clientSecret },
      { client_id: c.clientId, client_secret: c.clientSecret },
      { client_secret: '' },
      { client_id: d.clientId, client_secret: d.clientSecret },
    ] as Record<string, string>[];
    for (const extra of twice) {
      const res = await token({ grant_type: 'client_credentials', ...extra }, basic);
      expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
      expect(res.body).toEqual({
        success: false,
        error: 'invalid_request',
        error_description: expect.stringContaining('RFC 6749 §2.3'),
        code: 400,
        requestId: expect.any(String),
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const otherId = await token({ grant_type: 'client_credentials', client_id: d.clientId }, basic);
    expect(otherId.status).toBe(400);
    expect(otherId.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'client_id in the body is not the client of the HTTP Basic credentials',
    });
    expect(await liveTokens()).toBe(0);

    const sameId = await token({ grant_type: 'client_credentials', client_id: c.clientId }, basic);
    expect(sameId.status).toBe(200);
    expect(await liveTokens()).toBe(1);
    // A Basic header that does not decode is a failed authentication: the form does not stand in for it.
    const broken = await token(
      { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret },
      `Basic ${Buffer.from('no colon here').toString('base64')}`,
    );
    expect(broken.status).toBe(401);
    expect(broken.body.error).toBe('invalid_client');
    expect(await liveTokens()).toBe(1);
  });

  it('when a token expires, its client is disabled, or the header is not a token, then the API answers 401 invalid_token', async () => {
    const c = await client(org, ['read']);
    const first = (await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret)))
      .body.access_token;
    const second = (await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret)))
      .body.access_token;
    h.clock.advance(28_800_000 + 1000);
    const expired = await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${first}`);
    expect(expired.status).toBe(401);
    expect(expired.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", error_description="The access token has expired"/,
    );
    const fresh = (await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret)))
      .body.access_token;
    expect((await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${fresh}`)).status).toBe(200);
    await h.api().post(`/api/v1/admin/oauth/clients/${c._id}/disable`).set('x-api-key', org.adminKey);
    const off = await h.api().get('/api/v1/customers').set('Authorization', `Bearer ${fresh}`);
    expect(off.status).toBe(401);
    expect(off.body.error).toContain('disabled');
    expect(second).not.toBe(first);
    const garbage = await h.api().get('/api/v1/customers').set('Authorization', 'Bearer not-a-token');
    expect(garbage.status).toBe(401);
    expect(garbage.headers['www-authenticate']).toContain('invalid_token');
  });

  it('when organisation A’s token asks for organisation B’s contact, then it is not found; a deactivated service user’s token is refused with 403', async () => {
    const c = await client(org, ['read']);
    const theirs = await createContact(h, other, { Voornaam: 'Other', Email: 'other@example.test' });
    const bearer = `Bearer ${(await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret))).body.access_token}`;
    const leak = await h.api().get(`/api/v1/customers/${theirs}`).set('Authorization', bearer);
    expect(leak.status).toBe(404);
    await h.api().post(`/api/v1/admin/users/${c.serviceUserId}/deactivate`).set('x-api-key', org.adminKey);
    const refused = await h.api().get('/api/v1/customers').set('Authorization', bearer);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('deactivated');
    const noToken = await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret));
    expect(noToken.status).toBe(400);
    expect(noToken.body.error).toBe('invalid_grant');
  });

  it('when a client has scope all, then it does what its service user may, administration included only for an administrator', async () => {
    const c = await client(org, ['all']);
    const bearer = `Bearer ${(await token({ grant_type: 'client_credentials' }, basicAuth(c.clientId, c.clientSecret))).body.access_token}`;
    const write = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', bearer)
      .send({ data: { Email: 'all@example.test' } });
    expect(write.status).toBe(201);
    const admin = await h.api().get('/api/v1/admin/users').set('Authorization', bearer);
    expect(admin.status).toBe(403);
    expect(admin.body.error).toContain("Permission 'admin' is required");
  });
});
