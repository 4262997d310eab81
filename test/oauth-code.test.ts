import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { newAccessToken, newRefreshToken } from '../src/modules/oauth/token-formats';
import { oauthModel } from '../src/modules/oauth/tokens.model';
import { sweepRetention } from '../src/platform/ops/retention';
import { createContact, createOrg, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, hiddenFields, signedIn, staffUser } from './support/staff';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

const REDIRECT = 'http://127.0.0.1:9/callback';

async function appClient(o: TestOrg, extra: Record<string, unknown> = {}) {
  const res = await h
    .api()
    .post('/api/v1/admin/oauth/clients')
    .set('x-api-key', o.adminKey)
    .send({
      name: 'Partner CRM',
      type: 'public',
      grants: ['authorization_code', 'refresh_token'],
      scopes: ['read', 'create'],
      redirectUris: [REDIRECT, 'http://127.0.0.1:9/other'],
      ...extra,
    });
  expect(res.status).toBe(201);
  return res.body as { _id: string; clientId: string; clientSecret?: string };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const token = (form: Record<string, string>) =>
  h.api().post('/api/v1/auth/oauth/token').type('form').send(form);

/** A code (with its PKCE verifier) exchanged at the token endpoint, with the test's redirect URI. */
const exchange = (clientId: string, code: string, verifier: string, redirect = REDIRECT) =>
  token({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: redirect,
    code_verifier: verifier,
  });

type Agent = Awaited<ReturnType<typeof signedIn>>['agent'];

/** The adviser opens the authorization URL and answers the consent page; the redirect's parameters. */
async function consent(agent: Agent, params: Record<string, string>, decision: 'allow' | 'deny' = 'allow') {
  const page = await agent.get(`/api/v1/auth/oauth/authorize?${new URLSearchParams(params)}`);
  expect(page.status).toBe(200);
  const fields = hiddenFields(page.text);
  const answer = await agent
    .post('/api/v1/auth/oauth/authorize')
    .type('form')
    .send({ ...fields, _csrf: csrfIn(page.text), decision });
  expect(answer.status).toBe(303);
  return { page, location: new URL(answer.headers.location as string) };
}

async function adviser(o: TestOrg, groups = ['adviser']) {
  const me = await staffUser(h, o, groups, 'Ada Adviser');
  return { me, agent: (await signedIn(h, me.email)).agent };
}

describe('authorization code with PKCE', () => {
  it('when an adviser allows a public client, then its code (with the verifier) buys a token pair that acts as the adviser within the scope', async () => {
    const c = await appClient(org);
    const { me, agent } = await adviser(org);
    const { verifier, challenge } = pkce();
    const { page, location } = await consent(agent, {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      scope: 'read create',
      state: 'xyz 123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(page.text).toContain('Allow Partner CRM to use ActionDesk for you?');
    expect(page.text).toContain('See your contacts');
    expect(page.text).toContain('send actions to contacts');
    expect(page.text).not.toContain('Delete contacts');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:9");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz 123');
    expect(location.searchParams.get('iss')).toBe('http://localhost:3000');
    const code = location.searchParams.get('code') as string;
    expect(code).toMatch(/^adg_[0-9A-Za-z]{40}$/);

    const res = await exchange(c.clientId, code, verifier);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^adt_/),
      refresh_token: expect.stringMatching(/^adr_[0-9A-Za-z]{40}$/),
      expires_in: 28800,
      scope: 'read create',
    });
    const created = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', `Bearer ${res.body.access_token}`)
      .send({ data: { Email: 'via-partner@example.test' } });
    expect(created.status).toBe(201);
    const deleted = await h
      .api()
      .delete(`/api/v1/customers/${created.body._id}`)
      .set('Authorization', `Bearer ${res.body.access_token}`);
    expect(deleted.status).toBe(403);
    expect(deleted.body.error).toContain("'delete'");
    expect(me.name).toBe('Ada Adviser');
  });

  it('when a read-only adviser allows scope create, then the token still cannot create: it acts within the adviser’s groups', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org, ['read-only']);
    const p = pkce();
    const { location } = await consent(agent, {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      scope: 'read create',
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    });
    const res = await exchange(c.clientId, location.searchParams.get('code') as string, p.verifier);
    expect(res.body.scope).toBe('read create');
    const bearer = `Bearer ${res.body.access_token}`;
    expect((await h.api().get('/api/v1/customers').set('Authorization', bearer)).status).toBe(200);
    const create = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', bearer)
      .send({ data: { Email: 'n@example.test' } });
    expect(create.status).toBe(403);
    expect(create.body.error).not.toContain('scope');
  });

  it('when the adviser denies, then the client gets access_denied with its state and no code', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const { challenge } = pkce();
    const { location } = await consent(
      agent,
      {
        response_type: 'code',
        client_id: c.clientId,
        redirect_uri: REDIRECT,
        state: 's1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      'deny',
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('when the verifier is wrong, the redirect URI differs, or the code is reused or late, then invalid_grant; a reused code revokes the tokens it bought', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const codeFor = async () => {
      const p = pkce();
      const { location } = await consent(agent, {
        response_type: 'code',
        client_id: c.clientId,
        redirect_uri: REDIRECT,
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
      });
      return { code: location.searchParams.get('code') as string, verifier: p.verifier };
    };

    const a = await codeFor();
    const wrongVerifier = await exchange(c.clientId, a.code, pkce().verifier);
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body).toMatchObject({ success: false, error: 'invalid_grant', code: 400 });
    // The failed attempt spent the code: the right verifier no longer helps (no online guessing).
    expect((await exchange(c.clientId, a.code, a.verifier)).body.error).toBe('invalid_grant');

    const b = await codeFor();
    const mismatch = await exchange(c.clientId, b.code, b.verifier, 'http://127.0.0.1:9/other');
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe('invalid_grant');

    const d = await codeFor();
    const first = await exchange(c.clientId, d.code, d.verifier);
    expect(first.status).toBe(200);
    const bearer = `Bearer ${first.body.access_token}`;
    expect((await h.api().get('/api/v1/customers').set('Authorization', bearer)).status).toBe(200);
    const again = await exchange(c.clientId, d.code, d.verifier);
    expect(again.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('invalid'),
    });
    const after = await h.api().get('/api/v1/customers').set('Authorization', bearer);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toContain('invalid_token');
    expect(
      (
        await token({
          grant_type: 'refresh_token',
          client_id: c.clientId,
          refresh_token: first.body.refresh_token,
        })
      ).body.error,
    ).toBe('invalid_grant');

    const e = await codeFor();
    h.clock.advance(61_000);
    const late = await exchange(c.clientId, e.code, e.verifier);
    expect(late.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });

    const other = await appClient(org);
    const f = await codeFor();
    const stolen = await exchange(other.clientId, f.code, f.verifier);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('when a public client sends no PKCE, or a bad request, then the error goes back to it; an unknown client or redirect URI is shown, never redirected', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const open = (p: Record<string, string>) =>
      agent.get(`/api/v1/auth/oauth/authorize?${new URLSearchParams(p)}`);
    const back = async (p: Record<string, string>) => {
      const res = await open(p);
      expect(res.status).toBe(303);
      const to = new URL(res.headers.location as string);
      expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
      return to.searchParams;
    };
    const base = { client_id: c.clientId, redirect_uri: REDIRECT, state: 'st' };
    const noPkce = await back({ ...base, response_type: 'code' });
    expect(noPkce.get('error')).toBe('invalid_request');
    expect(noPkce.get('error_description')).toContain('PKCE');
    expect(noPkce.get('state')).toBe('st');
    const { challenge } = pkce();
    expect(
      (
        await back({
          ...base,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'plain',
        })
      ).get('error'),
    ).toBe('invalid_request');
    expect((await back({ ...base, response_type: 'token' })).get('error')).toBe('unsupported_response_type');
    expect(
      (
        await back({
          ...base,
          response_type: 'code',
          scope: 'delete',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })
      ).get('error'),
    ).toBe('invalid_scope');

    // A loopback redirect URI may name any port (RFC 8252 §7.3); nothing else may differ.
    const anyPort = await open({
      ...base,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:53117/callback',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(anyPort.status).toBe(200);
    expect(anyPort.text).toContain('127.0.0.1:53117');
    for (const near of [
      'http://127.0.0.1:53117/callback2',
      'http://localhost:9/callback',
      'http://127.0.0.1:9/callback?x=1',
      'http://user@127.0.0.1:9/callback',
    ]) {
      const res = await open({
        ...base,
        response_type: 'code',
        redirect_uri: near,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect({ near, status: res.status }).toEqual({ near, status: 400 });
    }
    const badRedirect = await open({
      ...base,
      response_type: 'code',
      redirect_uri: 'https://evil.example/cb',
    });
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.headers['content-type']).toContain('text/html');
    expect(badRedirect.text).toContain('not registered');
    const unknown = await open({ ...base, response_type: 'code', client_id: 'adc_000000000000000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('not registered with ActionDesk');
    const foreign = await appClient(other);
    const elsewhere = await open({ ...base, response_type: 'code', client_id: foreign.clientId });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.text).toContain('another organisation');
  });

  it('when the adviser is not signed in, then the sign-in page brings them back to the consent page', async () => {
    const c = await appClient(org);
    const { challenge } = pkce();
    const url = `/api/v1/auth/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: c.clientId, code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const anonymous = await h.api().get(url);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe(`/signin?next=${encodeURIComponent(url)}`);
    const me = await staffUser(h, org, ['adviser']);
    const { agent, res } = await signedIn(h, me.email, url);
    expect(res.headers.location).toBe(url);
    // Two redirect URIs registered and none sent: the request cannot say where to go back.
    const page = await agent.get(url);
    expect(page.status).toBe(400);
    expect(page.text).toContain('redirect_uri is missing');
  });

  it('when a confidential client exchanges a code, then it must authenticate; the consenting adviser’s deactivation stops its tokens', async () => {
    const c = await appClient(org, { type: 'confidential' });
    const { me, agent } = await adviser(org);
    const { location } = await consent(agent, {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
    });
    const code = location.searchParams.get('code') as string;
    const noSecret = await token({
      grant_type: 'authorization_code',
      client_id: c.clientId,
      code,
      redirect_uri: REDIRECT,
    });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const res = await token({
      grant_type: 'authorization_code',
      client_id: c.clientId,
      client_secret: c.clientSecret as string,
      code,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(200);
    const contact = await createContact(h, org, { Email: 'c@example.test' });
    const bearer = `Bearer ${res.body.access_token}`;
    expect((await h.api().get(`/api/v1/customers/${contact}`).set('Authorization', bearer)).status).toBe(200);
    await h.api().post(`/api/v1/admin/users/${me.id}/deactivate`).set('x-api-key', org.adminKey);
    const refused = await h.api().get(`/api/v1/customers/${contact}`).set('Authorization', bearer);
    expect(refused.status).toBe(403);
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      client_secret: c.clientSecret as string,
      refresh_token: res.body.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});

describe('refresh tokens', () => {
  it('when a refresh token is used, then it is rotated; using a rotated one again revokes the whole chain', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const p = pkce();
    const { location } = await consent(agent, {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    });
    const first = await exchange(c.clientId, location.searchParams.get('code') as string, p.verifier);
    const refresh = (t: string, scope?: string) =>
      token({
        grant_type: 'refresh_token',
        client_id: c.clientId,
        refresh_token: t,
        ...(scope ? { scope } : {}),
      });
    const second = await refresh(first.body.refresh_token, 'read');
    expect(second.status).toBe(200);
    expect(second.body.scope).toBe('read');
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const widen = await refresh(second.body.refresh_token, 'read delete');
    expect(widen.body.error).toBe('invalid_scope');
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    const live = `Bearer ${third.body.access_token}`;
    expect((await h.api().get('/api/v1/customers').set('Authorization', live)).status).toBe(200);

    // An attacker replays the first (rotated) refresh token: refused, and the chain is revoked.
    const replay = await refresh(first.body.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await h.api().get('/api/v1/customers').set('Authorization', live)).status).toBe(401);
    expect((await refresh(third.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('when a refresh token is past its lifetime on the clock, or presented by another client, then invalid_grant', async () => {
    const c = await appClient(org);
    const d = await appClient(org);
    const { agent } = await adviser(org);
    const p = pkce();
    const { location } = await consent(agent, {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
    });
    const pair = await exchange(c.clientId, location.searchParams.get('code') as string, p.verifier);
    const other = await token({
      grant_type: 'refresh_token',
      client_id: d.clientId,
      refresh_token: pair.body.refresh_token,
    });
    expect(other.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('another client'),
    });
    h.clock.advance(31 * 86_400_000);
    const late = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: pair.body.refresh_token,
    });
    expect(late.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });
});

describe('second uses that race, and what a client may leave out', () => {
  /** A consent and its code exchange: the first token pair of a new consent. */
  async function firstPair(extra: Record<string, unknown> = {}, authorize: Record<string, string> = {}) {
    const c = await appClient(org, extra);
    const { agent } = await adviser(org);
    const p = pkce();
    const params = {
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
      ...authorize,
    };
    // An empty value leaves the parameter out.
    const { location } = await consent(
      agent,
      Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')),
    );
    const code = location.searchParams.get('code') as string;
    return { c, code, verifier: p.verifier };
  }
  const api = (t: string) => h.api().get('/api/v1/customers').set('Authorization', `Bearer ${t}`);

  it('when one refresh token is sent ten times at once, then at most one answer carries tokens, and those are revoked with the chain', async () => {
    const { c, code, verifier } = await firstPair();
    const pair = await exchange(c.clientId, code, verifier);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        token({ grant_type: 'refresh_token', client_id: c.clientId, refresh_token: pair.body.refresh_token }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error === 'invalid_grant')).toBe(true);
    for (const w of won) {
      expect((await api(w.body.access_token)).status).toBe(401);
      expect(
        (
          await token({
            grant_type: 'refresh_token',
            client_id: c.clientId,
            refresh_token: w.body.refresh_token,
          })
        ).body.error,
      ).toBe('invalid_grant');
    }
    expect((await api(pair.body.access_token)).status).toBe(401);
  });

  it('when a second use of a refresh token lands between the first use spending it and saving the new pair, then the new pair is refused', async () => {
    // The interleaving of two racing requests, step by step, through the token endpoint's own model.
    const { c, code, verifier } = await firstPair();
    const pair = await exchange(c.clientId, code, verifier);
    const model = oauthModel({
      database: h.database,
      clock: h.clock,
      accessTokenSeconds: 28_800,
      refreshTokenSeconds: 2_592_000,
    });
    const client = await model.getClient(c.clientId, '');
    expect(client).not.toBe(false);
    const first = await model.getRefreshToken(pair.body.refresh_token);
    if (!first || !client) throw new Error('the refresh token is not live');
    expect(await model.revokeToken(first)).toBe(true);
    // The second request: the token is already spent, so it is a reuse — the family is revoked.
    expect(await model.getRefreshToken(pair.body.refresh_token)).toBe(false);
    const next = { accessToken: newAccessToken(), refreshToken: newRefreshToken(), scope: first.scope };
    await expect(model.saveToken(next as never, client, first.user)).rejects.toMatchObject({
      name: 'invalid_grant',
    });
    expect((await api(next.accessToken)).status).toBe(401);
    expect((await api(pair.body.access_token)).status).toBe(401);
  });

  it('when one code is exchanged five times at once, then at most one gets tokens, and those are revoked', async () => {
    const { c, code, verifier } = await firstPair();
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchange(c.clientId, code, verifier)));
    const won = answers.filter((a) => a.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.error === 'invalid_grant')).toBe(true);
    for (const w of won) expect((await api(w.body.access_token)).status).toBe(401);
  });

  it('when the authorization request left out the redirect URI (one registered), then the token request may leave it out too', async () => {
    const { c, code, verifier } = await firstPair({ redirectUris: [REDIRECT] }, { redirect_uri: '' });
    const res = await token({
      grant_type: 'authorization_code',
      client_id: c.clientId,
      code,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('read create');
  });

  it('when a refresh request sends a blank scope, then it keeps the grant; a repeated parameter is refused without spending the token', async () => {
    const { c, code, verifier } = await firstPair();
    const pair = await exchange(c.clientId, code, verifier);
    const blank = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: pair.body.refresh_token,
      scope: ' ',
    });
    expect(blank.status).toBe(200);
    expect(blank.body.scope).toBe('read create');
    const twice = await h
      .api()
      .post('/api/v1/auth/oauth/token')
      .type('form')
      .send(
        `grant_type=refresh_token&client_id=${c.clientId}&refresh_token=${blank.body.refresh_token}&scope=read&scope=read`,
      );
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'scope must be sent once',
    });
    const next = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: blank.body.refresh_token,
    });
    expect(next.status).toBe(200);
  });

  it('when a rotated refresh token comes back asking for more scope, then it is still a reuse: refused and the chain revoked', async () => {
    const { c, code, verifier } = await firstPair();
    const pair = await exchange(c.clientId, code, verifier);
    const next = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: pair.body.refresh_token,
    });
    const replay = await token({
      grant_type: 'refresh_token',
      client_id: c.clientId,
      refresh_token: pair.body.refresh_token,
      scope: 'read delete',
    });
    expect(replay.body.error).toBe('invalid_grant');
    expect((await api(next.body.access_token)).status).toBe(401);
  });

  it('when a client may not refresh, then it gets no refresh token; revoking all of a client’s tokens also spends its open codes', async () => {
    const noRefresh = await firstPair({ grants: ['authorization_code'] });
    const res = await exchange(noRefresh.c.clientId, noRefresh.code, noRefresh.verifier);
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
    const listed = await h
      .api()
      .get(`/api/v1/admin/oauth/clients/${(noRefresh.c as { _id: string })._id}/tokens`)
      .set('x-api-key', org.adminKey);
    expect(listed.body.tokens.map((t: { kind: string }) => t.kind)).toEqual(['access']);

    const open = await firstPair();
    const all = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${open.c._id}/revoke-tokens`)
      .set('x-api-key', org.adminKey);
    expect(all.status).toBe(200);
    const late = await exchange(open.c.clientId, open.code, open.verifier);
    expect(late.body.error).toBe('invalid_grant');
  });
});

describe('the consent form is bound to the request its page showed', () => {
  const authorizeUrl = (clientId: string, extra: Record<string, string> = {}) =>
    `/api/v1/auth/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'read',
      state: 'st-1',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      ...extra,
    })}`;
  /** The consent page for the agent's adviser: its form's fields (the CSRF token and the request's id). */
  async function shown(agent: Agent, clientId: string, extra: Record<string, string> = {}) {
    const page = await agent.get(authorizeUrl(clientId, extra));
    expect(page.status).toBe(200);
    return hiddenFields(page.text) as { _csrf: string; request_id: string };
  }
  const answer = (agent: Agent, form: Record<string, string>) =>
    agent.post('/api/v1/auth/oauth/authorize').type('form').send(form);
  const codesOf = async (clientUuid: string) => {
    const [row] = await tenantRows<{ n: string }>(
      h,
      org.organisationId,
      sql`SELECT count(*) AS n FROM oauth_codes WHERE client_id = ${clientUuid}`,
    );
    return Number(row?.n);
  };
  const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
  const GONE = 'This consent page can no longer be answered';

  it('when the page is shown, then its form carries only an id, and the server keeps the request under its hash for that adviser', async () => {
    const c = await appClient(org);
    const { me, agent } = await adviser(org);
    const fields = await shown(agent, c.clientId);
    expect(Object.keys(fields).sort()).toEqual(['_csrf', 'request_id']);
    expect(fields.request_id).toMatch(/^adq_[0-9A-Za-z]{40}$/);
    const rows = await tenantRows<Record<string, unknown>>(
      h,
      org.organisationId,
      sql`SELECT * FROM oauth_authorization_requests WHERE request_hash = ${hashOf(fields.request_id)}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: me.id,
      client_id: c._id,
      redirect_uri: REDIRECT,
      scopes: ['read'],
      state: 'st-1',
      used_at: null,
    });
    expect(new Date(rows[0]!.expires_at as string).getTime() - h.clock.now().getTime()).toBe(600_000);
    expect(JSON.stringify(rows)).not.toContain(fields.request_id);
  });

  it('when the form is edited to name another client, a wider scope or another redirect URI, then it is refused; the page’s own answer still gets what the page showed', async () => {
    const c = await appClient(org);
    const d = await appClient(org);
    const { agent } = await adviser(org);
    const fields = await shown(agent, c.clientId);
    for (const edit of [
      { client_id: d.clientId },
      { scope: 'read create' },
      { redirect_uri: 'http://127.0.0.1:9/other' },
      { response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256' },
    ] as Record<string, string>[]) {
      const res = await answer(agent, { ...fields, ...edit, decision: 'allow' });
      expect({ edit, status: res.status }).toEqual({ edit, status: 400 });
      expect(res.text).toContain(`${Object.keys(edit)[0]}: is not a known field`);
    }
    expect(await codesOf(c._id)).toBe(0);
    expect(await codesOf(d._id)).toBe(0);

    const res = await answer(agent, { ...fields, decision: 'allow' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(await codesOf(c._id)).toBe(1);
    expect(await codesOf(d._id)).toBe(0);
    const [code] = await tenantRows<{ scopes: string[]; redirect_uri: string }>(
      h,
      org.organisationId,
      sql`SELECT scopes, redirect_uri FROM oauth_codes WHERE client_id = ${c._id}`,
    );
    expect(code).toEqual({ scopes: ['read'], redirect_uri: REDIRECT });
  });

  it('when a request id is edited, replayed, late, or posted by another adviser (of this or another organisation), then a page refuses it and no code is issued', async () => {
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const colleague = await adviser(org);
    const stranger = await adviser(other);

    // Another adviser, with a valid CSRF token of their own, posts this adviser's id: refused, not spent.
    const mine = await shown(agent, c.clientId);
    const theirs = await shown(colleague.agent, c.clientId);
    const foreignClient = await appClient(other);
    const strangers = await shown(stranger.agent, foreignClient.clientId);
    for (const [who, csrf] of [
      [colleague.agent, theirs._csrf],
      [stranger.agent, strangers._csrf],
    ] as const) {
      const res = await answer(who, { _csrf: csrf, request_id: mine.request_id, decision: 'allow' });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toContain(GONE);
    }
    expect(await codesOf(c._id)).toBe(0);

    // An edited id (one character changed) and one that is no id at all.
    const last = mine.request_id.at(-1) === 'a' ? 'b' : 'a';
    for (const request_id of [`${mine.request_id.slice(0, -1)}${last}`, 'adq_x', '']) {
      const res = await answer(agent, { ...mine, request_id, decision: 'allow' });
      expect({ request_id, status: res.status }).toEqual({ request_id, status: 400 });
    }
    expect(await codesOf(c._id)).toBe(0);

    // The adviser's own answer works once; a replay (allow or deny) is refused.
    expect((await answer(agent, { ...mine, decision: 'allow' })).status).toBe(303);
    for (const decision of ['allow', 'deny']) {
      const replay = await answer(agent, { ...mine, decision });
      expect(replay.status).toBe(400);
      expect(replay.text).toContain(GONE);
    }
    expect(await codesOf(c._id)).toBe(1);

    // A denial spends it too.
    const denied = await shown(agent, c.clientId);
    expect((await answer(agent, { ...denied, decision: 'deny' })).status).toBe(303);
    expect((await answer(agent, { ...denied, decision: 'allow' })).status).toBe(400);

    // Ten minutes on the clock: still answerable just before, refused just after.
    const early = await shown(agent, c.clientId);
    const late = await shown(agent, c.clientId);
    h.clock.advance(599_000);
    expect((await answer(agent, { ...early, decision: 'allow' })).status).toBe(303);
    h.clock.advance(1_000);
    const expired = await answer(agent, { ...late, decision: 'allow' });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain(GONE);
    expect(await codesOf(c._id)).toBe(2);
  });

  it('when the client is disabled between the page and the answer, then the answer is refused: it follows the client as it is now', async () => {
    const c = await appClient(org, { type: 'confidential' });
    const { agent } = await adviser(org);
    const fields = await shown(agent, c.clientId);
    await h.api().post(`/api/v1/admin/oauth/clients/${c._id}/disable`).set('x-api-key', org.adminKey);
    const res = await answer(agent, { ...fields, decision: 'allow' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('disabled');
    expect(await codesOf(c._id)).toBe(0);
  });

  it('when a consent page’s request has expired, then the retention sweep removes it, answered or not, and keeps a live one', async () => {
    // A day ago by the database's clock too (the sweep never goes past the database's now).
    h.clock.set(new Date(Date.now() - 86_400_000));
    const c = await appClient(org);
    const { agent } = await adviser(org);
    const answered = await shown(agent, c.clientId);
    expect((await answer(agent, { ...answered, decision: 'deny' })).status).toBe(303);
    const unanswered = await shown(agent, c.clientId);
    h.clock.advance(5 * 60_000);
    const live = await shown(agent, c.clientId);
    const present = async (f: { request_id: string }) =>
      (
        await tenantRows(
          h,
          org.organisationId,
          sql`SELECT 1 FROM oauth_authorization_requests WHERE request_hash = ${hashOf(f.request_id)}`,
        )
      ).length === 1;
    expect([await present(answered), await present(unanswered), await present(live)]).toEqual([
      true,
      true,
      true,
    ]);
    // Eleven minutes after the first two were shown, six after the live one.
    const removed = await sweepRetention(h.database, new Date(h.clock.now().getTime() + 6 * 60_000), {
      jobsDays: null,
      eventsDays: null,
      auditDays: null,
      sweepMs: 3_600_000,
    });
    expect(removed.oauth_authorization_requests).toBeGreaterThanOrEqual(2);
    expect([await present(answered), await present(unanswered), await present(live)]).toEqual([
      false,
      false,
      true,
    ]);
    expect((await answer(agent, { ...live, decision: 'allow' })).status).toBe(303);
  });
});
