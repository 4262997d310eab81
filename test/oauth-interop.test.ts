import { AuthorizationCode, ClientCredentials } from 'simple-oauth2';
import { createOrg, type TestOrg } from './support/fixtures';
import { freePort, type Harness, startHarness } from './support/harness';
import { csrfIn, hiddenFields, signedIn, staffUser } from './support/staff';

// Independent OAuth client libraries from npm talk to the server over real HTTP: openid-client (v6,
// which discovers the server through its RFC 8414 metadata) and simple-oauth2.
type OpenIdClient = typeof import('openid-client');

let h: Harness;
let org: TestOrg;
let oc: OpenIdClient;
let issuer: string;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  h = await startHarness({ BASE_URL: issuer }, { port });
  org = await createOrg(h);
  // ESM-only: a dynamic import under Jest.
  oc = await import('openid-client');
});
afterAll(() => h.close());

async function register(body: Record<string, unknown>) {
  const res = await h.api().post('/api/v1/admin/oauth/clients').set('x-api-key', org.adminKey).send(body);
  expect(res.status).toBe(201);
  return res.body as { clientId: string; clientSecret: string | null };
}

/** An adviser signs in and allows the authorization URL; the URL the browser is sent back to. */
async function allow(authorizationUrl: URL): Promise<URL> {
  const me = await staffUser(h, org, ['adviser']);
  const { agent } = await signedIn(h, me.email);
  const page = await agent.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
  expect(page.status).toBe(200);
  const fields = hiddenFields(page.text);
  const answer = await agent
    .post('/api/v1/auth/oauth/authorize')
    .type('form')
    .send({ ...fields, _csrf: csrfIn(page.text), decision: 'allow' });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.location as string);
}

describe('openid-client (v6) discovers the server and uses every grant', () => {
  it('when a confidential client discovers the metadata, then client credentials, introspection and revocation work as the library expects', async () => {
    const c = await register({
      name: 'OIDC server app',
      grants: ['client_credentials'],
      scopes: ['read', 'create'],
    });
    const config = await oc.discovery(
      new URL(issuer),
      c.clientId,
      undefined,
      oc.ClientSecretBasic(c.clientSecret as string),
      { execute: [oc.allowInsecureRequests], algorithm: 'oauth2' },
    );
    expect(config.serverMetadata().token_endpoint).toBe(`${issuer}/api/v1/auth/oauth/token`);
    const tokens = await oc.clientCredentialsGrant(config, { scope: 'read' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('read');
    expect(tokens.expires_in).toBe(28800);
    const res = await oc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${issuer}/api/v1/customers`),
      'GET',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ customers: expect.any(Array) });

    const info = await oc.tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({
      active: true,
      scope: 'read',
      client_id: c.clientId,
      token_type: 'Bearer',
      iss: issuer,
    });
    await oc.tokenRevocation(config, tokens.access_token);
    expect((await oc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    // The library reads the RFC 6750 challenge of the 401 and raises it.
    await expect(
      oc.fetchProtectedResource(config, tokens.access_token, new URL(`${issuer}/api/v1/customers`), 'GET'),
    ).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'bearer', parameters: expect.objectContaining({ error: 'invalid_token' }) }],
    });
  });

  it('when a public client runs the authorization code flow with PKCE, then the library validates the answer (state, iss) and refreshes the token', async () => {
    const c = await register({
      name: 'OIDC mobile app',
      type: 'public',
      grants: ['authorization_code', 'refresh_token'],
      scopes: ['read'],
      redirectUris: [REDIRECT],
    });
    const config = await oc.discovery(new URL(issuer), c.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests],
      algorithm: 'oauth2',
    });
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const url = oc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'read',
      code_challenge: await oc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    expect(url.href.startsWith(`${issuer}/api/v1/auth/oauth/authorize?`)).toBe(true);
    const back = await allow(url);
    const tokens = await oc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.refresh_token).toMatch(/^adr_/);
    const read = await oc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${issuer}/api/v1/customers`),
      'GET',
    );
    expect(read.status).toBe(200);
    const next = await oc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('simple-oauth2', () => {
  it('when it asks with credentials in the header or in the body, then it gets tokens that call the API', async () => {
    const c = await register({ name: 'simple server app', grants: ['client_credentials'], scopes: ['read'] });
    for (const authorizationMethod of ['header', 'body'] as const) {
      const client = new ClientCredentials({
        client: { id: c.clientId, secret: c.clientSecret as string },
        auth: { tokenHost: issuer, tokenPath: '/api/v1/auth/oauth/token' },
        options: { authorizationMethod },
      });
      const token = await client.getToken({ scope: 'read' });
      expect(token.token).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: 28800 });
      expect(token.expired()).toBe(false);
      const res = await h
        .api()
        .get('/api/v1/customers')
        .set('Authorization', `Bearer ${token.token.access_token as string}`);
      expect(res.status).toBe(200);
    }
    const wrong = new ClientCredentials({
      client: { id: c.clientId, secret: 'adcs_wrong' },
      auth: { tokenHost: issuer, tokenPath: '/api/v1/auth/oauth/token' },
    });
    await expect(wrong.getToken({ scope: 'read' })).rejects.toMatchObject({
      output: { statusCode: 401 },
    });
  });

  it('when it runs the authorization code flow of a confidential client, then the code buys a token it can refresh', async () => {
    const c = await register({
      name: 'simple web app',
      grants: ['authorization_code', 'refresh_token'],
      scopes: ['read', 'create'],
      redirectUris: [REDIRECT],
    });
    const client = new AuthorizationCode({
      client: { id: c.clientId, secret: c.clientSecret as string },
      auth: {
        tokenHost: issuer,
        tokenPath: '/api/v1/auth/oauth/token',
        authorizePath: '/api/v1/auth/oauth/authorize',
      },
    });
    const url = new URL(
      client.authorizeURL({ redirect_uri: REDIRECT, scope: 'read create', state: 'simple-1' }),
    );
    const back = await allow(url);
    expect(back.searchParams.get('state')).toBe('simple-1');
    const token = await client.getToken({
      code: back.searchParams.get('code') as string,
      redirect_uri: REDIRECT,
    });
    expect(token.token.scope).toBe('read create');
    const refreshed = await token.refresh();
    expect(refreshed.token.access_token).not.toBe(token.token.access_token);
    const res = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', `Bearer ${refreshed.token.access_token as string}`)
      .send({ data: { Email: 'simple@example.test' } });
    expect(res.status).toBe(201);
  });
});
