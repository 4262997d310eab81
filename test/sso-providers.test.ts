import { sql } from 'drizzle-orm';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
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

const SECRET = 'provider-secret-7f3a9c0e-never-shown';
const add = (o: TestOrg, body: Record<string, unknown>) =>
  h.api().post('/api/v1/admin/sso/providers').set('x-api-key', o.adminKey).send(body);

describe('sign-in providers (spec 5.3)', () => {
  it('when an administrator adds a Microsoft-type provider, then it starts disabled with the derived issuer, the redirect address to register, and no secret in any answer', async () => {
    const res = await add(org, {
      type: 'microsoft',
      tenantId: 'contoso.onmicrosoft.com',
      clientId: 'app-123',
      clientSecret: SECRET,
      allowedDomains: ['Contoso.com'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      type: 'microsoft',
      name: 'Microsoft',
      issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
      tenantId: 'contoso.onmicrosoft.com',
      clientId: 'app-123',
      hasClientSecret: true,
      secretUpdatedAt: h.clock.now().toISOString(),
      enabled: false,
      allowedDomains: ['contoso.com'],
      jitGroup: null,
      directorySync: false,
      directoryUrl: null,
      groupMapping: {},
      syncNames: false,
      lastSyncAt: null,
      lastSync: null,
      redirectUri: 'http://localhost:3000/api/v1/auth/oauth/callback',
      createdAt: h.clock.now().toISOString(),
      updatedAt: h.clock.now().toISOString(),
    });
    const id = res.body._id as string;
    const list = await h.api().get('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey);
    expect(list.body.total).toBe(1);
    h.clock.advance(60_000);
    let changed = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${id}`)
      .set('x-api-key', org.adminKey)
      .send({
        enabled: true,
        tenantId: 'fabrikam.onmicrosoft.com',
        clientSecret: `${SECRET}-2`,
        jitGroup: 'read-only',
        allowedDomains: [],
      });
    // Just-in-time users only for named domains: any account at the provider would get in otherwise.
    expect(changed.status).toBe(400);
    expect(changed.body.details).toEqual([expect.objectContaining({ field: 'jitGroup' })]);
    expect(changed.text).toContain('needs allowedDomains');
    changed = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${id}`)
      .set('x-api-key', org.adminKey)
      .send({
        enabled: true,
        tenantId: 'fabrikam.onmicrosoft.com',
        clientSecret: `${SECRET}-2`,
        jitGroup: 'read-only',
      });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      enabled: true,
      issuer: 'https://login.microsoftonline.com/fabrikam.onmicrosoft.com/v2.0',
      secretUpdatedAt: h.clock.now().toISOString(),
      jitGroup: 'read-only',
    });
    const one = await h.api().get(`/api/v1/admin/sso/providers/${id}`).set('x-api-key', org.adminKey);
    for (const body of [res.text, list.text, changed.text, one.text]) expect(body).not.toContain(SECRET);
    // Stored sealed, not as text.
    const stored = await tenantRows<{ client_secret_sealed: string }>(
      h,
      org.organisationId,
      sql`SELECT client_secret_sealed FROM sso_providers`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.client_secret_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(h.logs)).not.toContain(SECRET);
    // Every change is in the audit trail, through whose key, the secret only as set or replaced.
    const audit = await h
      .api()
      .get(`/api/v1/audit-events?targetType=sso_provider&targetId=${id}`)
      .set('x-api-key', org.adminKey);
    expect(audit.status).toBe(200);
    expect(audit.text).not.toContain(SECRET);
    expect(audit.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        action: 'sso_provider.updated',
        actor: { type: 'api_key', userId: org.adminId, credentialId: expect.any(String), label: null },
        target: { type: 'sso_provider', id },
        summary: {
          changed: {
            enabled: { from: false, to: true },
            tenantId: { from: 'contoso.onmicrosoft.com', to: 'fabrikam.onmicrosoft.com' },
            issuer: {
              from: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
              to: 'https://login.microsoftonline.com/fabrikam.onmicrosoft.com/v2.0',
            },
            jitGroup: { from: null, to: 'read-only' },
            clientSecret: 'replaced',
          },
        },
        requestId: expect.any(String),
      }),
      expect.objectContaining({ action: 'sso_provider.created', at: '2026-03-02T09:00:00.000Z' }),
    ]);
    // One a page: the cursor walks to the older one.
    const first = await h
      .api()
      .get('/api/v1/audit-events?targetType=sso_provider&limit=1')
      .set('x-api-key', org.adminKey);
    expect(first.body).toMatchObject({ hasMore: true, events: [{ action: 'sso_provider.updated' }] });
    const second = await h
      .api()
      .get(`/api/v1/audit-events?targetType=sso_provider&limit=1&startingAfter=${first.body.nextCursor}`)
      .set('x-api-key', org.adminKey);
    expect(second.body).toMatchObject({ hasMore: false, events: [{ action: 'sso_provider.created' }] });
    const removed = await h.api().delete(`/api/v1/admin/sso/providers/${id}`).set('x-api-key', org.adminKey);
    expect(removed.status).toBe(204);
    const gone = await h
      .api()
      .get('/api/v1/audit-events?action=sso_provider.deleted')
      .set('x-api-key', org.adminKey);
    expect(gone.body.events[0]).toMatchObject({
      target: { id },
      summary: { name: 'Microsoft', type: 'microsoft' },
    });
  });

  it('when the input is wrong, then each problem is named and nothing is stored', async () => {
    const bad = await add(org, { type: 'microsoft', clientId: 'x', clientSecret: 'y' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toContainEqual(
      expect.objectContaining({ field: 'tenantId', message: 'is required for a microsoft provider' }),
    );
    const oidc = await add(org, {
      type: 'oidc',
      clientId: 'x',
      clientSecret: 'y',
      issuer: 'http://idp.example.com',
    });
    expect(oidc.status).toBe(400);
    expect(oidc.body.details[0]).toMatchObject({ field: 'issuer' });
    const domain = await add(org, {
      type: 'google',
      clientId: 'x',
      clientSecret: 'y',
      allowedDomains: ['not a domain'],
    });
    expect(domain.body.details[0]).toMatchObject({ field: 'allowedDomains[0]' });
    const extra = await add(org, { type: 'google', clientId: 'x', clientSecret: 'y', secret: 'z' });
    expect(extra.status).toBe(400);
    const list = await h.api().get('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey);
    expect(list.body.providers.map((p: { type: string }) => p.type)).toEqual([]); // the first test's was removed at its end
  });

  it('when another organisation or a non-administrator asks, then it sees nothing of them', async () => {
    const made = await add(org, {
      type: 'oidc',
      issuer: 'https://idp.example.com',
      clientId: 'c',
      clientSecret: 's',
    });
    expect(made.body).toMatchObject({ name: 'Single sign-on', issuer: 'https://idp.example.com' });
    const foreign = await h
      .api()
      .get(`/api/v1/admin/sso/providers/${made.body._id}`)
      .set('x-api-key', other.adminKey);
    expect(foreign.status).toBe(404);
    expect(
      (await h.api().delete(`/api/v1/admin/sso/providers/${made.body._id}`).set('x-api-key', other.adminKey))
        .status,
    ).toBe(404);
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const refused = await h.api().get('/api/v1/admin/sso/providers').set('x-api-key', adviser.key);
    expect(refused.status).toBe(403);
    const gone = await h
      .api()
      .delete(`/api/v1/admin/sso/providers/${made.body._id}`)
      .set('x-api-key', org.adminKey);
    expect(gone.status).toBe(204);
    expect(
      (await h.api().get(`/api/v1/admin/sso/providers/${made.body._id}`).set('x-api-key', org.adminKey))
        .status,
    ).toBe(404);
  });
});
