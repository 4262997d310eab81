import request from 'supertest';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, STAFF_PASSWORD, staffUser, withoutTokens } from './support/staff';

let h: Harness;
let org: TestOrg;
let providerId: string;

async function passwordSignIn(email: string, password = STAFF_PASSWORD) {
  const agent = request.agent(h.server);
  const page = await agent.get('/signin');
  const res = await agent
    .post('/signin')
    .type('form')
    .send({ _csrf: csrfIn(page.text), email, password });
  return { agent, res };
}

const settings = (passwordSignIn: boolean) =>
  h.api().patch('/api/v1/admin/sso/settings').set('x-api-key', org.adminKey).send({ passwordSignIn });

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Wouters');
  const res = await h
    .api()
    .post('/api/v1/admin/sso/providers')
    .set('x-api-key', org.adminKey)
    .send({ type: 'google', clientId: 'wouters.apps', clientSecret: 'wouters-secret' });
  expect(res.status).toBe(201);
  providerId = res.body._id;
});
afterAll(() => h.close());

describe('password sign-in switched off per organisation (spec 5.3)', () => {
  it('when password sign-in is switched off, then advisers must use single sign-on, administrators keep their password (recorded), and it needs an enabled provider', async () => {
    const adviser = await staffUser(h, org, ['adviser'], 'Wim Wouters');
    const admin = await staffUser(h, org, ['administrator'], 'An Wouters');
    expect((await h.api().get('/api/v1/admin/sso/settings').set('x-api-key', org.adminKey)).body).toEqual({
      passwordSignIn: true,
    });
    // Off needs a provider to sign in through.
    const early = await settings(false);
    expect(early.status).toBe(409);
    expect(early.body.error).toContain('Enable a sign-in provider first');
    await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ enabled: true });
    const off = await settings(false);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ passwordSignIn: false });

    // The adviser's right password gets exactly the answer of a wrong one, and counts like one: the
    // switch must not turn sign-in into a way to test passwords.
    const right = await passwordSignIn(adviser.email);
    const wrong = await passwordSignIn(adviser.email, 'not it at all');
    expect([right.res.status, wrong.res.status]).toEqual([401, 401]);
    expect(withoutTokens(right.res.text)).toBe(withoutTokens(wrong.res.text));
    expect(right.res.text).toContain('The e-mail address or the password is not right.');
    expect((await right.agent.get('/staff')).status).toBe(303);
    for (let i = 0; i < 3; i++) expect((await passwordSignIn(adviser.email)).res.status).toBe(401);
    const heldRight = await passwordSignIn(adviser.email);
    const heldWrong = await passwordSignIn(adviser.email, 'not it at all');
    expect([heldRight.res.status, heldWrong.res.status]).toEqual([429, 429]);
    expect(heldRight.res.headers['retry-after']).toBe(heldWrong.res.headers['retry-after']);
    expect(withoutTokens(heldRight.res.text)).toBe(withoutTokens(heldWrong.res.text));
    // A deactivated adviser's right password, too, is a wrong one here (it would confirm an old password).
    const gone = await staffUser(h, org, ['adviser'], 'Gert Wouters');
    expect(
      (await h.api().post(`/api/v1/admin/users/${gone.id}/deactivate`).set('x-api-key', org.adminKey)).status,
    ).toBe(200);
    const goneRight = await passwordSignIn(gone.email);
    const goneWrong = await passwordSignIn(gone.email, 'not it at all');
    expect([goneRight.res.status, goneWrong.res.status]).toEqual([401, 401]);
    expect(withoutTokens(goneRight.res.text)).toBe(withoutTokens(goneWrong.res.text));

    const glass = await passwordSignIn(admin.email);
    expect(glass.res.status).toBe(303);
    expect((await glass.agent.get('/staff')).status).toBe(200);
    const audit = await h
      .api()
      .get('/api/v1/audit-events?action=user.break_glass_sign_in')
      .set('x-api-key', org.adminKey);
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        target: { type: 'user', id: admin.id },
        actor: expect.objectContaining({ type: 'user', userId: admin.id }),
        summary: expect.objectContaining({ via: 'password' }),
      }),
    ]);
    expect(JSON.stringify(h.logs)).toContain('break-glass password sign-in of an administrator');
    const switched = await h
      .api()
      .get('/api/v1/audit-events?action=organisation.updated')
      .set('x-api-key', org.adminKey);
    expect(switched.body.events[0].summary).toEqual({
      changed: { passwordSignIn: { from: true, to: false } },
    });

    // The organisation's page shows the buttons, the password form folded away for administrators.
    const signInPage = await request(h.server).get(`/signin/org/${org.organisationId}`);
    expect(signInPage.text).toContain('Sign in with Google');
    expect(signInPage.text).toContain('<summary>Administrators: sign in with your password</summary>');

    // The last enabled provider stays while password sign-in is off.
    const disable = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ enabled: false });
    expect(disable.status).toBe(409);
    const remove = await h
      .api()
      .delete(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey);
    expect(remove.status).toBe(409);
    expect(remove.body.error).toContain('switch password sign-in on first');
    // API keys are not staff sign-in: they keep working.
    expect((await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey)).status).toBe(200);
  });

  it('when an administrator switches password sign-in back on, then advisers sign in with their password again', async () => {
    const adviser = await staffUser(h, org, ['adviser'], 'Els Wouters');
    expect((await passwordSignIn(adviser.email)).res.status).toBe(401);
    const on = await settings(true);
    expect(on.body).toEqual({ passwordSignIn: true });
    expect((await passwordSignIn(adviser.email)).res.status).toBe(303);
    const page = await request(h.server).get(`/signin/org/${org.organisationId}`);
    expect(page.text).not.toContain('<details>');
  });
});
