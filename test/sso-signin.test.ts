import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createOrg, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { type IdentityProvider, startIdentityProvider, startSsoHarness } from './support/identity-provider';
import { csrfIn, withoutTokens } from './support/staff';

let h: Harness;
let idp: IdentityProvider;
let org: TestOrg;
let providerId: string;
const CLIENT_ID = 'makelaar.apps.example';
const SECRET = 'makelaar-client-secret-0f9e8d7c';
type Agent = ReturnType<typeof request.agent>;

const fromHtml = (href: string) => href.replaceAll('&amp;', '&');

/** The start link of the organisation's button, as its sign-in page shows it to this browser. */
async function buttonHref(agent: Agent, organisationId: string): Promise<string> {
  const page = await agent.get(`/signin/org/${organisationId}`);
  const href = /href="(\/signin\/sso\/start[^"]+)"/.exec(page.text)?.[1];
  if (!href) throw new Error(`no button on ${page.status} ${page.text.slice(0, 200)}`);
  return fromHtml(href);
}

/** Presses the button, lets the provider answer, and comes back: the callback's address. */
async function throughProvider(agent: Agent, href: string): Promise<string> {
  const start = await agent.get(href);
  if (start.status !== 303) throw new Error(`start: ${start.status} ${start.text.slice(0, 300)}`);
  const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location') as string);
  return `${back.pathname}${back.search}`;
}

/** A whole sign-in in a fresh browser: the callback's answer. */
async function signIn(organisationId = org.organisationId) {
  const agent = request.agent(h.server);
  const callback = await throughProvider(agent, await buttonHref(agent, organisationId));
  const res = await agent.get(callback);
  return { agent, res, callback };
}

async function addStaff(email: string, kind: 'staff' | 'service' = 'staff') {
  const res = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name: email.split('@')[0], groups: ['adviser'], ...(kind === 'service' ? { kind } : {}) });
  if (res.status !== 201) throw new Error(`user: ${res.status} ${res.text}`);
  return res.body._id as string;
}

const now = () => Math.floor(h.clock.now().getTime() / 1000);

beforeAll(async () => {
  h = await startSsoHarness();
  idp = await startIdentityProvider(h);
  org = await createOrg(h, 'Makelaardij Peeters');
  const res = await h.api().post('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey).send({
    type: 'oidc',
    name: 'Peeters ID',
    issuer: idp.issuer,
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    enabled: true,
  });
  expect(res.status).toBe(201);
  providerId = res.body._id;
});
afterAll(async () => {
  await idp?.stop();
  await h.close();
});

describe('single sign-on start and callback (spec 5.3)', () => {
  it('when the start link lacks this browser’s token, comes from another browser, or the browser is signed in, then no sign-in starts at the provider', async () => {
    const agent = request.agent(h.server);
    const href = await buttonHref(agent, org.organisationId);
    const bare = href.replace(/&_csrf=[^&]+/, '');
    const missing = await agent.get(bare);
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('This sign-in button has expired');
    // Another site sends the browser to a link it made in its own browser: the token is not this one's.
    const stranger = request.agent(h.server);
    const foreign = await stranger.get(href);
    expect(foreign.status).toBe(403);
    // Signed in already: on to `next`, the session kept.
    await addStaff('kim@peeters.example');
    idp.as({ sub: 'kim', email: 'kim@peeters.example', email_verified: true });
    const { agent: signed, res } = await signIn();
    expect(res.status).toBe(303);
    const again = await signed.get(`${await buttonHref(agent, org.organisationId)}&next=/staff/contacts`);
    expect(again.status).toBe(403); // the other browser's token
    const own = await signed.get(`/signin/org/${org.organisationId}`);
    expect(own.status).toBe(303); // a signed-in browser is not shown the sign-in page
    const hrefSigned = `/signin/sso/start?organisation=${org.organisationId}&provider=${providerId}&next=%2Fstaff%2Fcontacts&_csrf=${encodeURIComponent(csrfIn((await signed.get('/staff')).text))}`;
    const straight = await signed.get(hrefSigned);
    expect(straight.status).toBe(303);
    expect(straight.headers.location).toBe('/staff/contacts');
  });

  it('when the provider comes back after ten minutes, then the state has expired', async () => {
    idp.as({ sub: 'kim', email: 'kim@peeters.example', email_verified: true });
    const agent = request.agent(h.server);
    const callback = await throughProvider(agent, await buttonHref(agent, org.organisationId));
    h.clock.advance(10 * 60_000);
    const late = await agent.get(callback);
    expect(late.status).toBe(400);
    expect(late.text).toContain('took too long');
  });

  it('when the ID token has another nonce, audience or issuer, has expired, is unsigned or signed with the client secret, then it is refused', async () => {
    idp.as({ sub: 'kim', email: 'kim@peeters.example', email_verified: true });
    const base = () => ({
      iss: idp.issuer,
      aud: CLIENT_ID,
      sub: 'kim',
      email: 'kim@peeters.example',
      email_verified: true,
      nonce: idp.lastNonce(),
      iat: now(),
      exp: now() + 600,
    });
    const cases: [string, () => Promise<string>][] = [
      ['another nonce', () => idp.sign({}, { ...base(), nonce: 'not-the-one' })],
      ['another audience', () => idp.sign({}, { ...base(), aud: 'someone-else' })],
      ['another authorized party', () => idp.sign({}, { ...base(), azp: 'someone-else' })],
      ['another issuer', () => idp.sign({}, { ...base(), iss: 'https://evil.example' })],
      ['expired', () => idp.sign({}, { ...base(), iat: now() - 7200, exp: now() - 3600 })],
      [
        'unsigned',
        async () =>
          `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(base())).toString('base64url')}.`,
      ],
      [
        'signed with the client secret',
        async () => {
          const jose = await import('jose');
          return new jose.SignJWT(base() as never)
            .setProtectedHeader({ alg: 'HS256' })
            .sign(new TextEncoder().encode(SECRET));
        },
      ],
    ];
    for (const [what, token] of cases) {
      const agent = request.agent(h.server);
      const callback = await throughProvider(agent, await buttonHref(agent, org.organisationId));
      idp.answerWith(await token());
      const res = await agent.get(callback);
      expect({ what, status: res.status, refused: res.text.includes('could not be verified') }).toEqual({
        what,
        status: 403,
        refused: true,
      });
      expect((await agent.get('/staff')).status).toBe(303);
    }
  });

  it('when the address has a new account at the provider, then the link stays with the first and the sign-in is refused', async () => {
    const userId = await addStaff('lien@peeters.example');
    idp.as({ sub: 'lien-1', email: 'lien@peeters.example', email_verified: true });
    expect((await signIn()).res.status).toBe(303);
    idp.as({ sub: 'lien-2', email: 'lien@peeters.example', email_verified: true });
    const second = await signIn();
    expect(second.res.status).toBe(403);
    expect(second.res.text).toContain('linked to another Peeters ID account');
    const links = await tenantRows(
      h,
      org.organisationId,
      sql`SELECT subject FROM sso_identities WHERE user_id = ${userId}`,
    );
    expect(links).toEqual([{ subject: 'lien-1' }]);
  });

  it('when just-in-time creation is on, then an unknown address of an allowed domain gets a user in the default group; others and service users are refused', async () => {
    const bad = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ jitGroup: 'administrator', allowedDomains: ['peeters.example'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ field: 'jitGroup' });
    const on = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ jitGroup: 'read-only', allowedDomains: ['peeters.example'] });
    expect(on.status).toBe(200);

    idp.as({ sub: 'new-1', email: 'Nieuw@Peeters.example', email_verified: true, name: 'Nele Nieuw' });
    const made = await signIn();
    expect(made.res.status).toBe(303);
    // The browser is remembered for the account, as after a password sign-in (its device cookie).
    expect(String(made.res.headers['set-cookie'])).toMatch(
      /adk_device=[^;]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict/,
    );
    const [user] = await tenantRows<{ name: string; groups: string[]; kind: string }>(
      h,
      org.organisationId,
      sql`SELECT name, groups, kind FROM users WHERE email = 'nieuw@peeters.example'`,
    );
    expect(user).toEqual({ name: 'Nele Nieuw', groups: ['read-only'], kind: 'staff' });
    expect(JSON.stringify(h.logs)).toMatch(/"sso":"signed-in".*"created":true/);

    idp.as({ sub: 'other-1', email: 'iemand@elders.example', email_verified: true });
    const other = await signIn();
    expect(other.res.status).toBe(403);
    expect(other.res.text).toContain('Addresses of elders.example may not sign in');

    await addStaff('robot@peeters.example', 'service');
    idp.as({ sub: 'robot-1', email: 'robot@peeters.example', email_verified: true });
    const robot = await signIn();
    expect(robot.res.status).toBe(403);
    expect(robot.res.text).toContain('There is no ActionDesk account for robot@peeters.example');
    const count = await tenantRows<{ n: number }>(
      h,
      org.organisationId,
      sql`SELECT count(*)::int AS n FROM users WHERE email IN ('iemand@elders.example')`,
    );
    expect(count[0]?.n).toBe(0);
  });

  it('when a provider creates users of a domain just in time, then the e-mail-first step shows its buttons to every address of the domain, with an account or without: it lists no accounts there', async () => {
    await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ jitGroup: 'read-only', allowedDomains: ['peeters.example'] });
    await addStaff('bestaand@peeters.example');
    const firstStep = async (email: string) => {
      const agent = request.agent(h.server);
      const form = await agent.get('/signin');
      const res = await agent
        .post('/signin/sso')
        .type('form')
        .send({ _csrf: csrfIn(form.text), email });
      expect(res.status).toBe(200);
      // The same page but for the address itself and the tokens.
      return withoutTokens(
        res.text
          .replaceAll(email, '<address>')
          .replaceAll(encodeURIComponent(email), '<address>')
          .replace(/_csrf=[^&"]+/g, '_csrf=…'),
      );
    };
    const known = await firstStep('bestaand@peeters.example');
    expect(known).toContain('Sign in with Peeters ID');
    expect(await firstStep('onbekend@peeters.example')).toBe(known);
    expect(await firstStep('Nog.Iemand@PEETERS.example')).toBe(known);
    // Another domain: no buttons, as before.
    expect(await firstStep('onbekend@elders.example')).toContain(
      'No single sign-on is set up for this address',
    );

    // An address of the domain with an account in another organisation gets the domain's buttons too:
    // whether they are shown never depends on accounts elsewhere (that would tell who has one).
    const other = await createOrg(h, 'Kantoor Elders');
    const theirs = await h.api().post('/api/v1/admin/sso/providers').set('x-api-key', other.adminKey).send({
      type: 'oidc',
      name: 'Elders ID',
      issuer: idp.issuer,
      clientId: 'elders.apps.example',
      clientSecret: 'elders-client-secret-1a2b3c',
      enabled: true,
    });
    expect(theirs.status).toBe(201);
    const user = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', other.adminKey)
      .send({ email: 'gedeeld@peeters.example', name: 'Gedeeld', groups: ['adviser'] });
    expect(user.status).toBe(201);
    const elsewhere = await firstStep('gedeeld@peeters.example');
    expect(elsewhere).toContain('Sign in with Elders ID');
    expect(elsewhere).toContain('Sign in with Peeters ID');

    // Switched off again: the domain's unknown addresses get no buttons.
    await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ jitGroup: null });
    expect(await firstStep('onbekend@peeters.example')).toContain('No single sign-on is set up');
    expect(await firstStep('bestaand@peeters.example')).toBe(known);
  });

  it('when input is wrong, then the pages answer 400, 403 or 404 in HTML and the logs hold no code, state or token', async () => {
    const agent = request.agent(h.server);
    const form = await agent.get('/signin');
    const notEmail = await agent
      .post('/signin/sso')
      .type('form')
      .send({ _csrf: csrfIn(form.text), email: 'nope' });
    expect(notEmail.status).toBe(400);
    expect(notEmail.text).toContain('Give your e-mail address');
    const noToken = await agent.post('/signin/sso').type('form').send({ email: 'kim@peeters.example' });
    expect(noToken.status).toBe(403);
    const unknownOrg = await agent.get('/signin/org/01900000-0000-7000-8000-000000000000');
    expect(unknownOrg.status).toBe(404);
    const notAnId = await agent.get('/signin/org/not-an-id');
    expect(notAnId.status).toBe(404);
    const href = await buttonHref(agent, org.organisationId);
    const unknownProvider = await agent.get(href.replace(providerId, '01900000-0000-7000-8000-000000000000'));
    expect(unknownProvider.status).toBe(403);
    expect(unknownProvider.text).toContain('does not exist');
    const garbage = await agent.get('/api/v1/auth/oauth/callback?code=x&state=%00%ff');
    expect(garbage.status).toBe(400);
    expect(garbage.headers['content-type']).toContain('text/html');
    const logged = JSON.stringify(h.logs);
    expect(logged).toContain('/api/v1/auth/oauth/callback?code=[redacted]&state=[redacted]');
    expect(logged).not.toMatch(/callback\?code=(?!\[redacted\])/);
    expect(logged).not.toMatch(/_csrf=(?!\[redacted\])/);
    expect(logged).not.toContain(SECRET);
  });

  it('when the provider’s discovery document names another issuer, or a provider is on an inner address SSO_PRIVATE_NETWORKS does not list, then the sign-in does not start', async () => {
    // A discovery document that claims to be someone else.
    const impostor = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: 'https://accounts.example',
          authorization_endpoint: 'https://accounts.example/a',
          token_endpoint: 'https://accounts.example/t',
          jwks_uri: 'https://accounts.example/k',
        }),
      );
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    const made = await h
      .api()
      .post('/api/v1/admin/sso/providers')
      .set('x-api-key', org.adminKey)
      .send({ type: 'oidc', name: 'Impostor', issuer, clientId: 'x', clientSecret: 'y', enabled: true });
    expect(made.status).toBe(201);
    const agent = request.agent(h.server);
    const page = await agent.get(`/signin/org/${org.organisationId}`);
    const href = fromHtml(
      /href="(\/signin\/sso\/start[^"]+)"[^>]*>Sign in with Impostor/.exec(page.text)?.[1] ?? '',
    );
    const start = await agent.get(href);
    expect(start.status).toBe(502);
    expect(start.text).toContain('did not answer as expected');
    expect(JSON.stringify(h.logs)).toContain('the discovery document names another issuer');
    await new Promise((resolve) => impostor.close(resolve));

    // An instance whose SSO_PRIVATE_NETWORKS does not list the provider's network, on the same database:
    // registering a provider there is refused, and one registered where it was listed does not start.
    const strict = await startHarness({}, { database: h.database });
    try {
      const other = await createOrg(strict);
      const res = await strict
        .api()
        .post('/api/v1/admin/sso/providers')
        .set('x-api-key', other.adminKey)
        .send({ type: 'oidc', issuer: idp.issuer, clientId: 'x', clientSecret: 'y', enabled: true });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        expect.objectContaining({ field: 'issuer', message: expect.stringMatching(/https|loopback/) }),
      ]);
      const browser = request.agent(strict.server);
      const signInPage = await browser.get(`/signin/org/${org.organisationId}`);
      const link = fromHtml(
        /href="(\/signin\/sso\/start[^"]+)"[^>]*>Sign in with Peeters ID/.exec(signInPage.text)?.[1] ?? '',
      );
      const refused = await browser.get(link);
      expect(refused.status).toBe(502);
      expect(JSON.stringify(strict.logs)).toMatch(/is a loopback address|not allowed/);
    } finally {
      await strict.close();
    }
  });

  it('when the provider is removed, then its linked accounts go with it and the audit event names whose', async () => {
    const linked = await tenantRows<{ user_id: string }>(
      h,
      org.organisationId,
      sql`SELECT user_id FROM sso_identities WHERE provider_id = ${providerId}`,
    );
    expect(linked.length).toBeGreaterThan(0);
    const removed = await h
      .api()
      .delete(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey);
    expect(removed.status).toBe(204);
    const gone = await h
      .api()
      .get('/api/v1/audit-events?action=sso_provider.deleted')
      .set('x-api-key', org.adminKey);
    expect(gone.body.events[0].summary).toMatchObject({ unlinkedIdentities: linked.length });
    expect([...gone.body.events[0].summary.unlinkedUserIds].sort()).toEqual(
      linked.map((l) => l.user_id).sort(),
    );
    expect(await tenantRows(h, org.organisationId, sql`SELECT 1 FROM sso_identities`)).toEqual([]);
  });
});
