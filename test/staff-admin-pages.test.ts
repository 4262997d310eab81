import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, STAFF_PASSWORD, signedIn } from './support/staff';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
});
afterAll(() => h.close());

async function browserOf(userId: string, email: string) {
  await h
    .api()
    .put(`/api/v1/admin/users/${userId}/password`)
    .set('x-api-key', org.adminKey)
    .send({ password: STAFF_PASSWORD });
  return (await signedIn(h, email)).agent;
}

async function adminBrowser() {
  const { body } = await h.api().get(`/api/v1/admin/users/${org.adminId}`).set('x-api-key', org.adminKey);
  return browserOf(org.adminId, body.email);
}

describe('administrators’ pages', () => {
  it('when an administrator creates an API key on a user’s page, then it is shown once and works; revoking it on the page makes the next call 401', async () => {
    const admin = await adminBrowser();
    const list = await admin.get('/staff/users');
    expect(list.status).toBe(200);
    expect(list.text).toContain('aria-current="page">Users</a>');
    const added = await admin
      .post('/staff/users')
      .type('form')
      .send(
        `_csrf=${csrfIn(list.text)}&name=CRM+robot&email=robot%40example.test&kind=service&groups=adviser&groups=read-only`,
      );
    expect(added.status).toBe(303);
    const userPath = added.headers.location!.split('?')[0]!;
    expect(userPath).toMatch(/^\/staff\/users\/[0-9a-f-]{36}$/);
    const page = await admin.get(added.headers.location!);
    expect(page.text).toContain('The user was added.');
    expect(page.text).toContain('<dt>Kind</dt><dd>service</dd>');
    expect(page.text).toContain('No API keys yet.');

    const created = await admin
      .post(`${userPath}/apikeys`)
      .type('form')
      .send({ _csrf: csrfIn(page.text), name: 'CRM production' });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const key = /<p class="secret" id="new-key">(adk_[0-9A-Za-z]{38})<\/p>/.exec(created.text)?.[1];
    expect(key).toBeDefined();
    expect((await h.api().get('/api/v1/customers').set('x-api-key', key!)).status).toBe(200);
    // Shown once: the page read again has the key's name and prefix, never the key.
    const again = await admin.get(userPath);
    expect(again.text).toContain('CRM production');
    expect(again.text).toContain(`<code>${key!.slice(0, 12)}…</code>`);
    expect(again.text).not.toContain(key!);
    // Every destructive button on the page asks first.
    const dangers = [...again.text.matchAll(/<button[^>]*class="danger"[^>]*>/g)].map((m) => m[0]);
    expect(dangers.length).toBeGreaterThanOrEqual(2); // deactivate, revoke
    expect(dangers.filter((b) => !/data-confirm="[^"]{20,}"/.test(b))).toEqual([]);
    // Used once: when, in the organisation's zone, and still active.
    expect(again.text).toMatch(
      /<td data-label="Last used"><time datetime="[^"]+" title="[^"]+">[^<]+<\/time><\/td><td data-label="Status">active<\/td>/,
    );

    const revokePath = /action="([^"]+\/revoke)"/.exec(again.text)?.[1];
    const revoked = await admin
      .post(revokePath!)
      .type('form')
      .send({ _csrf: csrfIn(again.text) });
    expect(revoked.status).toBe(303);
    expect((await admin.get(revoked.headers.location!)).text).toContain('The key was revoked');
    const refused = await h.api().get('/api/v1/customers').set('x-api-key', key!);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/Invalid API key|revoked/);
  });

  it('when an administrator changes groups and activation on the page, then the API sees it; the last administrator cannot be deactivated', async () => {
    const admin = await adminBrowser();
    const user = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', org.adminKey)
      .send({ email: 'groups@example.test', name: 'Grouped', groups: ['read-only'] });
    const path = `/staff/users/${user.body._id}`;
    let page = await admin.get(path);
    const saved = await admin
      .post(`${path}/groups`)
      .type('form')
      .send(`_csrf=${csrfIn(page.text)}&groups=adviser&groups=file+manager`);
    expect(saved.status).toBe(303);
    const read = await h.api().get(`/api/v1/admin/users/${user.body._id}`).set('x-api-key', org.adminKey);
    expect(read.body.groups).toEqual(['adviser', 'file manager']);
    page = await admin.get(path);
    const none = await admin
      .post(`${path}/groups`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(none.status).toBe(400);
    expect(none.text).toContain('Choose at least one group');
    const off = await admin
      .post(`${path}/status`)
      .type('form')
      .send({ _csrf: csrfIn(page.text), status: 'deactivated' });
    expect(off.status).toBe(303);
    expect(
      (await h.api().get(`/api/v1/admin/users/${user.body._id}`).set('x-api-key', org.adminKey)).body.status,
    ).toBe('deactivated');
    const mePage = await admin.get(`/staff/users/${org.adminId}`);
    const lastAdmin = await admin
      .post(`/staff/users/${org.adminId}/status`)
      .type('form')
      .send({ _csrf: csrfIn(mePage.text), status: 'deactivated' });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.text).toContain('last active administrator');
  });

  it('when an adviser opens the administrators’ pages, then they get 403; without the CSRF token a form is refused and nothing changes', async () => {
    const adviser = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', org.adminKey)
      .send({ email: 'plain.adviser@example.test', name: 'Plain adviser', groups: ['adviser'] });
    const browser = await browserOf(adviser.body._id, 'plain.adviser@example.test');
    const home = await browser.get('/staff');
    expect(home.text).not.toContain('/staff/users');
    const users = await browser.get('/staff/users');
    expect(users.status).toBe(403);
    expect(users.text).toContain('Permission &#39;admin&#39; is required');
    const admin = await adminBrowser();
    const forged = await admin
      .post(`/staff/users/${adviser.body._id}/apikeys`)
      .type('form')
      .send({ name: 'sneaky' });
    expect(forged.status).toBe(403);
    const keys = await h
      .api()
      .get(`/api/v1/admin/users/${adviser.body._id}/apikeys`)
      .set('x-api-key', org.adminKey);
    expect(keys.body.apiKeys).toEqual([]);
    expect((await admin.get('/staff/integrations')).text).toContain('OAuth client applications');
  });
});
