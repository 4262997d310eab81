import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, STAFF_PASSWORD, signedIn } from './support/staff';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

const register = (body: unknown, key = org.adminKey) =>
  h
    .api()
    .post('/api/v1/admin/oauth/clients')
    .set('x-api-key', key)
    .send(body as object);

describe('OAuth clients (administrators)', () => {
  it('when an administrator registers a confidential client, then its secret is shown once, it acts within a new service user, and the secret can be rotated', async () => {
    const res = await register({
      name: 'Partner CRM',
      grants: ['client_credentials'],
      scopes: ['read', 'create'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      clientId: expect.stringMatching(/^adc_[0-9A-Za-z]{24}$/),
      clientSecret: expect.stringMatching(/^adcs_[0-9A-Za-z]{40}$/),
      type: 'confidential',
      grants: ['client_credentials'],
      scopes: ['read', 'create'],
      redirectUris: [],
      disabledAt: null,
    });
    const user = await h
      .api()
      .get(`/api/v1/admin/users/${res.body.serviceUserId}`)
      .set('x-api-key', org.adminKey);
    expect(user.body).toMatchObject({
      name: 'Partner CRM (OAuth client)',
      kind: 'service',
      groups: ['adviser'],
    });
    const list = await h.api().get('/api/v1/admin/oauth/clients').set('x-api-key', org.adminKey);
    expect(list.body.clients.map((c: { clientId: string }) => c.clientId)).toContain(res.body.clientId);
    expect(JSON.stringify(list.body)).not.toContain(res.body.clientSecret);
    expect(JSON.stringify(list.body)).not.toContain('secretHash');

    const rotated = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${res.body._id}/rotate-secret`)
      .set('x-api-key', org.adminKey);
    expect(rotated.status).toBe(200);
    expect(rotated.body.clientSecret).toMatch(/^adcs_/);
    expect(rotated.body.clientSecret).not.toBe(res.body.clientSecret);
    const off = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${res.body._id}/disable`)
      .set('x-api-key', org.adminKey);
    expect(off.body.disabledAt).not.toBeNull();
    const again = await h
      .api()
      .post(`/api/v1/admin/oauth/clients/${res.body._id}/disable`)
      .set('x-api-key', org.adminKey);
    expect(again.status).toBe(409);
    // The service user cannot be deleted while the client acts within it.
    const gone = await h
      .api()
      .delete(`/api/v1/admin/users/${res.body.serviceUserId}`)
      .set('x-api-key', org.adminKey);
    expect(gone.status).toBe(409);
    expect(gone.body.error).toContain('service user of an OAuth client');
  });

  it('when a client is registered with inconsistent settings, then each problem is named and nothing is made', async () => {
    const staff = await createUserWithKey(h, org, ['adviser']);
    const foreign = await createUserWithKey(h, other, ['adviser'], 'service');
    const cases: [unknown, string][] = [
      [{ name: 'A', grants: ['refresh_token'], scopes: ['read'] }, 'grants'],
      [{ name: 'A', type: 'public', grants: ['client_credentials'], scopes: ['read'] }, 'grants'],
      [{ name: 'A', grants: ['authorization_code'], scopes: ['read'] }, 'redirectUris'],
      [
        {
          name: 'A',
          grants: ['authorization_code'],
          scopes: ['read'],
          redirectUris: ['http://partner.example/cb'],
        },
        'redirectUris[0]',
      ],
      [
        {
          name: 'A',
          grants: ['authorization_code'],
          scopes: ['read'],
          redirectUris: ['https://partner.example/cb#x'],
        },
        'redirectUris[0]',
      ],
      [{ name: 'A', grants: ['client_credentials'], scopes: ['write'] }, 'scopes[0]'],
      [
        { name: 'A', grants: ['client_credentials'], scopes: ['read'], serviceUserId: staff.userId },
        'serviceUserId',
      ],
      [
        { name: 'A', grants: ['client_credentials'], scopes: ['read'], serviceUserId: foreign.userId },
        'serviceUserId',
      ],
    ];
    const before = (await h.api().get('/api/v1/admin/oauth/clients').set('x-api-key', org.adminKey)).body
      .total;
    for (const [body, field] of cases) {
      const res = await register(body);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await h.api().get('/api/v1/admin/oauth/clients').set('x-api-key', org.adminKey)).body.total).toBe(
      before,
    );
    const loopback = await register({
      name: 'Desktop tool',
      type: 'public',
      grants: ['authorization_code', 'refresh_token'],
      scopes: ['read'],
      redirectUris: ['http://127.0.0.1:8123/callback'],
    });
    expect(loopback.status).toBe(201);
    expect(loopback.body).toMatchObject({ clientSecret: null, serviceUserId: null });
  });

  it('when an adviser or another organisation asks, then they get 403 or 404', async () => {
    const made = await register({ name: 'Mine', grants: ['client_credentials'], scopes: ['read'] });
    const adviser = await createUserWithKey(h, org, ['adviser']);
    expect((await h.api().get('/api/v1/admin/oauth/clients').set('x-api-key', adviser.key)).status).toBe(403);
    const theirs = await h
      .api()
      .get(`/api/v1/admin/oauth/clients/${made.body._id}`)
      .set('x-api-key', other.adminKey);
    expect(theirs.status).toBe(404);
  });

  it('when an administrator registers a client on the Integrations page, then the secret is shown once; rotating and disabling work there', async () => {
    const { body: admin } = await h
      .api()
      .get(`/api/v1/admin/users/${org.adminId}`)
      .set('x-api-key', org.adminKey);
    await h
      .api()
      .put(`/api/v1/admin/users/${org.adminId}/password`)
      .set('x-api-key', org.adminKey)
      .send({ password: STAFF_PASSWORD });
    const { agent } = await signedIn(h, admin.email);
    const page = await agent.get('/staff/integrations');
    expect(page.status).toBe(200);
    const bad = await agent
      .post('/staff/integrations/clients')
      .type('form')
      .send(`_csrf=${csrfIn(page.text)}&name=X&grants=authorization_code&scopes=read`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('redirectUris: authorization_code needs at least one');
    const made = await agent
      .post('/staff/integrations/clients')
      .type('form')
      .send(
        `_csrf=${csrfIn(page.text)}&name=Boekhouding+%3Cb%3E&type=confidential&grants=client_credentials&scopes=read&scopes=update`,
      );
    expect(made.status).toBe(201);
    const secret = /<p class="secret" id="new-secret">(adcs_[0-9A-Za-z]{40})<\/p>/.exec(made.text)?.[1];
    expect(secret).toBeDefined();
    expect(made.text).toContain('Boekhouding &lt;b&gt;');
    const again = await agent.get('/staff/integrations');
    expect(again.text).not.toContain(secret!);
    const id = /action="\/staff\/integrations\/clients\/([0-9a-f-]{36})\/rotate"/.exec(again.text)?.[1];
    const rotated = await agent
      .post(`/staff/integrations/clients/${id}/rotate`)
      .type('form')
      .send({ _csrf: csrfIn(again.text) });
    expect(rotated.status).toBe(200);
    const second = /id="new-secret">(adcs_[0-9A-Za-z]{40})</.exec(rotated.text)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(secret);
    const off = await agent
      .post(`/staff/integrations/clients/${id}/disable`)
      .type('form')
      .send({ _csrf: csrfIn(again.text) });
    expect(off.status).toBe(303);
    expect((await agent.get(off.headers.location!)).text).toContain('The client is disabled');
    const api = await h.api().get(`/api/v1/admin/oauth/clients/${id}`).set('x-api-key', org.adminKey);
    expect(api.body.disabledAt).not.toBeNull();
  });
});
