import { sql } from 'drizzle-orm';
import { englishIn } from './support/english';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';

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

  it('when a Dutch administrator opens the providers, a provider, the add form and a refused post, then no English is left and times carry the zone', async () => {
    const dutch = await createOrg(h);
    const admin = await staffUser(h, dutch, ['administrator'], 'Lies Peeters');
    const { agent } = await signedIn(h, admin.email);
    const settings = await agent.get('/staff/settings');
    const saved = await agent
      .post('/staff/settings')
      .type('form')
      .send({ _csrf: csrfIn(settings.text), language: 'nl', notify: 'none' });
    expect(saved.status).toBe(303);
    const csrf = csrfIn(settings.text);
    const post = (path: string, fields: [string, string][]) =>
      agent
        .post(path)
        .set('Accept-Language', 'en')
        .type('form')
        .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());

    const empty = await agent.get('/staff/integrations/providers').set('Accept-Language', 'en');
    expect(empty.text).toContain('<h1>Aanmeldingsdiensten</h1>');
    expect(empty.text).toContain('<p>Nog geen aanmeldingsdienst.</p>');
    expect(empty.text).toContain('<h2 id="add">Een aanmeldingsdienst toevoegen</h2>');
    // Password sign-in cannot go off without an enabled provider: said in Dutch.
    const noWayIn = await post('/staff/integrations/providers/password-sign-in', [['passwordSignIn', 'off']]);
    expect(noWayIn.status).toBe(409);
    expect(noWayIn.text).toContain(
      '<li class="error">Schakel eerst een aanmeldingsdienst in: zonder wachtwoord melden medewerkers zich alleen via zo’n dienst aan.</li>',
    );
    // Refused: each problem in the form's words, never an API field name; what was typed is kept.
    const refused = await post('/staff/integrations/providers', [
      ['type', 'microsoft'],
      ['clientId', 'contoso-app'],
      ['clientSecret', SECRET],
      ['jitGroup', 'adviser'],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<h2>Kijk dit even na</h2>');
    expect(refused.text).toContain(
      '<li class="error">Directory-id (tenant): verplicht voor een dienst van het type Microsoft.</li>',
    );
    expect(refused.text).toContain(
      'Onbekende gebruikers aanmaken: geef ook de toegelaten e-maildomeinen, zodat alleen adressen van die domeinen aangemaakt worden.',
    );
    expect(/<div class="summary"[\s\S]*?<\/div>/.exec(refused.text)?.[0]).not.toMatch(
      /tenantId|jitGroup|is required/,
    );
    expect(refused.text).toContain('value="contoso-app"');

    const added = await post('/staff/integrations/providers', [
      ['type', 'microsoft'],
      ['name', 'Contoso'],
      ['tenantId', 'contoso.onmicrosoft.com'],
      ['clientId', 'contoso-app'],
      ['clientSecret', SECRET],
      ['allowedDomains', 'contoso.be'],
      ['jitGroup', 'adviser'],
    ]);
    expect(added.status).toBe(303);
    const id = /providers\/([0-9a-f-]{36})\?done=created$/.exec(String(added.headers.location))![1];
    h.clock.advance(60_000);
    // The group mapping is written with the groups' Dutch names, and stored by their own.
    const changed = await post(`/staff/integrations/providers/${id}`, [
      ['name', 'Contoso'],
      ['tenantId', 'contoso.onmicrosoft.com'],
      ['clientId', 'contoso-app'],
      ['allowedDomains', 'contoso.be'],
      ['jitGroup', 'adviser'],
      ['enabled', 'on'],
      ['groupMapping', 'grp-a = Dossierbeheerder\ngrp-b = alleen lezen'],
    ]);
    expect(changed.status).toBe(303);
    const stored = await h.api().get(`/api/v1/admin/sso/providers/${id}`).set('x-api-key', dutch.adminKey);
    expect(stored.body.groupMapping).toEqual({ 'grp-a': 'file manager', 'grp-b': 'read-only' });

    const pages = {
      list: await agent.get('/staff/integrations/providers').set('Accept-Language', 'en'),
      provider: await agent
        .get(`/staff/integrations/providers/${id}?done=created`)
        .set('Accept-Language', 'en'),
      refused,
      noWayIn,
    };
    for (const [name, page] of Object.entries(pages)) {
      expect({ name, lang: /<html lang="(\w+)">/.exec(page.text)?.[1] }).toEqual({ name, lang: 'nl' });
      expect({ name, english: englishIn(page.text) }).toEqual({ name, english: [] });
      for (const t of page.text.matchAll(/<time datetime="[^"]+" title="([^"]+)">([^<]+)<\/time>/g)) {
        expect(t[1]).toBe('Europe/Brussels');
        expect(t[2]).toMatch(/^\d{1,2} \w+\.? \d{4}, \d\d:\d\d (CET|CEST)$/);
      }
    }
    expect(pages.list.text).toContain('<td data-label="Status">ingeschakeld</td>');
    const one = pages.provider.text;
    expect(one).toContain('<p class="notice" role="status">De aanmeldingsdienst is toegevoegd.</p>');
    expect(one).toContain('<dd>Type Microsoft (directory van Microsoft Entra ID)</dd>');
    expect(one).toMatch(/<dd>bewaard op <time datetime="[^"]+" title="Europe\/Brussels">/);
    expect(one).toContain('grp-a = dossierbeheerder\ngrp-b = alleen lezen</textarea>');
    expect(one).toContain('<option value="adviser" selected>Ja, in de groep adviseur</option>');
    expect(one).toContain(
      'data-confirm="Contoso verwijderen? De knop verdwijnt en niemand meldt zich er nog mee aan; gebruikers houden hun account."',
    );
    expect(one).toContain('<p>Uit. Nog niet uitgevoerd.</p>');
    expect(one).toContain(
      'Gewijzigd: Ingeschakeld: nee → ja; Groepen koppelen: — → grp-a = dossierbeheerder, grp-b = alleen lezen',
    );
    expect(one).toContain('Clientgeheim ingesteld');
    expect([...one.matchAll(/<time /g)].length).toBeGreaterThanOrEqual(3);
    for (const page of Object.values(pages)) expect(page.text).not.toContain(SECRET);
  });
});
