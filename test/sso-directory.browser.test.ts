import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { createOrg, createUserWithKey, type TestOrg, tenantRows } from './support/fixtures';
import type { Harness } from './support/harness';
import { type IdentityProvider, startIdentityProvider, startSsoHarness } from './support/identity-provider';
import { STAFF_PASSWORD, signedIn } from './support/staff';

let h: Harness;
let browser: Browser;
let idp: IdentityProvider;
let org: TestOrg;
let providerId: string;
let directory: http.Server;
let directoryUrl: string;
const SECRET = 'entra-directory-secret-77aa66bb';

interface DirUser {
  id: string;
  mail: string | null;
  userPrincipalName: string;
  displayName: string;
  accountEnabled: boolean;
}
/** What the directory holds now (the test changes it), its groups, and what it was asked. */
let people: DirUser[] = [];
let groups: Record<string, string[]> = {};
const asked: { path: string; authorization?: string }[] = [];
let nextLinkOrigin: string | undefined;

/** A Microsoft Graph-style directory on 127.0.0.1: /users and group members, two users a page. */
function startDirectory(): Promise<void> {
  directory = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', directoryUrl);
    asked.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
    if (!req.headers.authorization?.startsWith('Bearer ')) {
      res.writeHead(401).end();
      return;
    }
    const page = Number(url.searchParams.get('page') ?? '0');
    const list = (items: object[]) => {
      const slice = items.slice(page * 2, page * 2 + 2);
      const more = items.length > page * 2 + 2;
      const next = new URL(url.href);
      next.searchParams.set('page', String(page + 1));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          value: slice,
          ...(more
            ? {
                '@odata.nextLink': `${nextLinkOrigin ?? new URL(directoryUrl).origin}${next.pathname}${next.search}`,
              }
            : {}),
        }),
      );
    };
    if (url.pathname === '/v1.0/users') return list(people);
    const group = /^\/v1\.0\/groups\/([^/]+)\/transitiveMembers\/microsoft\.graph\.user$/.exec(url.pathname);
    if (group) return list((groups[decodeURIComponent(group[1] as string)] ?? []).map((id) => ({ id })));
    res.writeHead(404).end();
  });
  return new Promise((resolve) => directory.listen(0, '127.0.0.1', resolve));
}

async function addStaff(email: string, name: string, groupList = ['adviser']) {
  const res = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name, groups: groupList });
  if (res.status !== 201) throw new Error(`user: ${res.status} ${res.text}`);
  const set = await h
    .api()
    .put(`/api/v1/admin/users/${res.body._id}/password`)
    .set('x-api-key', org.adminKey)
    .send({ password: STAFF_PASSWORD });
  expect(set.status).toBe(200);
  return res.body._id as string;
}

const userRow = async (id: string) =>
  (
    await tenantRows<{ name: string; status: string; groups: string[] }>(
      h,
      org.organisationId,
      sql`SELECT name, status, groups FROM users WHERE id = ${id}`,
    )
  )[0];

beforeAll(async () => {
  browser = await launchBrowser();
  h = await startSsoHarness();
  idp = await startIdentityProvider(h);
  await startDirectory();
  directoryUrl = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
  org = await createOrg(h, 'Fabrikam');
  const res = await h
    .api()
    .post('/api/v1/admin/sso/providers')
    .set('x-api-key', org.adminKey)
    .send({
      type: 'microsoft',
      tenantId: 'fabrikam.onmicrosoft.com',
      issuer: idp.issuer,
      clientId: 'fabrikam-app',
      clientSecret: SECRET,
      enabled: true,
      allowedDomains: ['fabrikam.example'],
    });
  expect(res.status).toBe(201);
  providerId = res.body._id;
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await new Promise((resolve) => directory?.close(resolve));
  await h.close();
});

describe('directory synchronisation (Microsoft-type)', () => {
  it('when a user is disabled or removed in the directory, then they are deactivated here, their open session ends on the next request, names and groups follow the mapping, and every change is in the audit trail', async () => {
    const anna = await addStaff('anna@fabrikam.example', 'Anna');
    const bert = await addStaff('bert@fabrikam.example', 'Bert Claes');
    const carl = await addStaff('carl@fabrikam.example', 'Carl Dewit');
    const dirk = await addStaff('dirk@partner.example', 'Dirk Partner');
    people = [
      {
        id: 'u-anna',
        mail: 'Anna@Fabrikam.example',
        userPrincipalName: 'anna@fabrikam.onmicrosoft.com',
        displayName: 'Anna Jacobs',
        accountEnabled: true,
      },
      {
        id: 'u-bert',
        mail: 'bert@fabrikam.example',
        userPrincipalName: 'bert@fabrikam.onmicrosoft.com',
        displayName: 'Bert Claes',
        accountEnabled: false,
      },
      {
        id: 'u-eva',
        mail: null,
        userPrincipalName: 'eva@fabrikam.example',
        displayName: 'Eva',
        accountEnabled: true,
      },
    ];
    groups = { 'grp-readers': ['u-anna', 'u-eva'] };
    // Bert has a browser open on the staff pages (Chromium, signed in with his password).
    const bertPage = await browser.newPage();
    await bertPage.goto(`${h.baseUrl}/signin`);
    await bertPage.getByLabel('E-mail address').fill('bert@fabrikam.example');
    await bertPage.getByLabel('Password').fill(STAFF_PASSWORD);
    await bertPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await bertPage.waitForURL(`${h.baseUrl}/staff`);

    const on = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({
        directorySync: true,
        directoryUrl: `${directoryUrl}/v1.0`,
        groupMapping: { 'grp-readers': 'read-only' },
        syncNames: true,
      });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({
      directorySync: true,
      directoryUrl: `${directoryUrl}/v1.0`,
      groupMapping: { 'grp-readers': 'read-only' },
      syncNames: true,
      lastSyncAt: null,
    });
    await h.jobs.drain();

    expect(await userRow(bert)).toMatchObject({ status: 'deactivated' });
    expect(await userRow(carl)).toMatchObject({ status: 'deactivated' });
    expect(await userRow(anna)).toEqual({ name: 'Anna Jacobs', status: 'active', groups: ['read-only'] });
    expect(await userRow(dirk)).toMatchObject({ status: 'active', name: 'Dirk Partner' }); // not the directory's
    // Bert's open session ends on his next request: the browser lands on the sign-in page, told why.
    await bertPage.reload();
    expect(bertPage.url()).toBe(`${h.baseUrl}/signin?next=%2Fstaff&ended=deactivated`);
    expect(await bertPage.getByRole('status').innerText()).toContain('Your account has been deactivated');
    await bertPage.close();

    // Graph-style: two pages of users with the token from the provider (client credentials, .default).
    const userPages = asked.filter((a) => a.path.startsWith('/v1.0/users'));
    expect(userPages.map((a) => new URL(a.path, directoryUrl).searchParams.get('page'))).toEqual([null, '1']);
    expect(userPages[0]?.path).toContain('$select=id,displayName,mail,userPrincipalName,accountEnabled');
    const token = (userPages[0]?.authorization ?? '').slice('Bearer '.length);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims.scope).toBe(`${directoryUrl}/.default`);

    const audit = await h
      .api()
      .get('/api/v1/audit-events?targetType=user&action=user.deactivated')
      .set('x-api-key', org.adminKey);
    expect(audit.status).toBe(200);
    expect(audit.body.events.map((e: { target: { id: string } }) => e.target.id).sort()).toEqual(
      [bert, carl].sort(),
    );
    expect(audit.body.events.find((e: { target: { id: string } }) => e.target.id === bert)).toMatchObject({
      actor: { type: 'system', userId: null, label: 'directory sync' },
      summary: {
        reason: 'disabled in the directory',
        provider: 'Microsoft',
        changed: { status: { from: 'active', to: 'deactivated' } },
      },
    });
    // Three events of one run share their moment: a walk one a page still meets each exactly once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: {
        status: number;
        body: { events: { target: { id: string } }[]; nextCursor: string | null };
      } = await h
        .api()
        .get(
          `/api/v1/audit-events?actorLabel=directory%20sync&limit=1${cursor ? `&startingAfter=${cursor}` : ''}`,
        )
        .set('x-api-key', org.adminKey);
      expect(page.status).toBe(200);
      seen.push(...page.body.events.map((e) => e.target.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([anna, bert, carl].sort());
    const renamed = await h.api().get(`/api/v1/audit-events?targetId=${anna}`).set('x-api-key', org.adminKey);
    expect(renamed.body.events[0]).toMatchObject({
      action: 'user.updated',
      summary: {
        changed: {
          name: { from: 'Anna', to: 'Anna Jacobs' },
          groups: { from: ['adviser'], to: ['read-only'] },
        },
      },
    });
    // The outcome is on the provider, and the next run is queued an hour on.
    const provider = await h
      .api()
      .get(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey);
    expect(provider.body).toMatchObject({
      lastSyncAt: h.clock.now().toISOString(),
      lastSync: { users: 3, deactivated: 2, updated: 1, skipped: [], error: null },
    });
    const queued = await tenantRows<{ run_at: Date }>(
      h,
      org.organisationId,
      sql`SELECT run_at FROM jobs WHERE kind = 'sso.directory-sync' AND status = 'pending'`,
    );
    expect(queued.map((j) => new Date(j.run_at).toISOString())).toEqual([
      new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
    ]);
    // Administrators see the run and its changes on the provider's page.
    await addStaff('admin@partner.example', 'Ilse Admin', ['administrator']);
    const { agent: admin } = await signedIn(h, 'admin@partner.example');
    const page = await admin.get(`/staff/integrations/providers/${providerId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('3 users in the directory, 2 deactivated, 1 updated');
    expect(page.text).toMatch(/Bert Claes<\/a><\/td><td>Deactivated \(disabled in the directory\)/);
    expect(page.text).toMatch(/Carl Dewit<\/a><\/td><td>Deactivated \(not in the directory\)/);
    expect(page.text).toContain(
      'Anna Jacobs</a></td><td>Updated: Name: &quot;Anna&quot; → &quot;Anna Jacobs&quot;',
    );
    expect(page.text).not.toContain(SECRET);
  });

  it('when the directory lists nobody or a page points elsewhere, then nothing changes and the provider says why', async () => {
    const fien = await addStaff('fien@fabrikam.example', 'Fien');
    people = [];
    const now = await h
      .api()
      .post(`/api/v1/admin/sso/providers/${providerId}/sync`)
      .set('x-api-key', org.adminKey);
    expect(now.status).toBe(202);
    await h.jobs.drain();
    expect(await userRow(fien)).toMatchObject({ status: 'active' });
    let provider = await h
      .api()
      .get(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey);
    expect(provider.body.lastSync.error).toBe('the directory listed no user: nothing was changed');

    people = [
      {
        id: 'u-1',
        mail: 'x1@fabrikam.example',
        userPrincipalName: 'x1',
        displayName: 'X1',
        accountEnabled: true,
      },
      {
        id: 'u-2',
        mail: 'x2@fabrikam.example',
        userPrincipalName: 'x2',
        displayName: 'X2',
        accountEnabled: true,
      },
      {
        id: 'u-3',
        mail: 'x3@fabrikam.example',
        userPrincipalName: 'x3',
        displayName: 'X3',
        accountEnabled: true,
      },
    ];
    nextLinkOrigin = 'http://127.0.0.2:9';
    await h.api().post(`/api/v1/admin/sso/providers/${providerId}/sync`).set('x-api-key', org.adminKey);
    await h.jobs.drain();
    nextLinkOrigin = undefined;
    expect(await userRow(fien)).toMatchObject({ status: 'active' });
    provider = await h.api().get(`/api/v1/admin/sso/providers/${providerId}`).set('x-api-key', org.adminKey);
    expect(provider.body.lastSync.error).toBe('a page pointed to another address: stopped');
    // A directory that knows none of our users (a wrong tenant) changes nothing either.
    await h.api().post(`/api/v1/admin/sso/providers/${providerId}/sync`).set('x-api-key', org.adminKey);
    await h.jobs.drain();
    expect(await userRow(fien)).toMatchObject({ status: 'active' });
    provider = await h.api().get(`/api/v1/admin/sso/providers/${providerId}`).set('x-api-key', org.adminKey);
    expect(provider.body.lastSync.error).toMatch(/^none of the \d+ users it manages is in this directory/);
    // Matched by user principal name too (mail is an alias), and mail first.
    people = [
      {
        id: 'u-anna',
        mail: 'anna@fabrikam.example',
        userPrincipalName: 'anna@fabrikam.onmicrosoft.com',
        displayName: 'Anna Jacobs',
        accountEnabled: true,
      },
      {
        id: 'u-fien',
        mail: 'f.alias@fabrikam.example',
        userPrincipalName: 'fien@fabrikam.example',
        displayName: 'Fien',
        accountEnabled: true,
      },
    ];
    await h.api().post(`/api/v1/admin/sso/providers/${providerId}/sync`).set('x-api-key', org.adminKey);
    await h.jobs.drain();
    provider = await h.api().get(`/api/v1/admin/sso/providers/${providerId}`).set('x-api-key', org.adminKey);
    expect(provider.body.lastSync).toMatchObject({ error: null, deactivated: 0 });
    expect(await userRow(fien)).toMatchObject({ status: 'active' });
    // A run that would deactivate more than half of the users it manages (and more than 5) changes nothing.
    const many = [];
    for (let i = 0; i < 6; i++) many.push(await addStaff(`staff${i}@fabrikam.example`, `Staff ${i}`));
    await h.api().post(`/api/v1/admin/sso/providers/${providerId}/sync`).set('x-api-key', org.adminKey);
    await h.jobs.drain();
    provider = await h.api().get(`/api/v1/admin/sso/providers/${providerId}`).set('x-api-key', org.adminKey);
    expect(provider.body.lastSync.error).toMatch(
      /^it would deactivate 6 of the 8 users it manages: nothing was changed/,
    );
    for (const id of many) expect(await userRow(id)).toMatchObject({ status: 'active' });
    // After a failed run the next one is still queued at the usual time; switching off cancels it.
    const queued = await tenantRows<{ run_at: Date }>(
      h,
      org.organisationId,
      sql`SELECT run_at FROM jobs WHERE kind = 'sso.directory-sync' AND status = 'pending'`,
    );
    expect(queued.map((j) => new Date(j.run_at).toISOString())).toEqual([
      new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
    ]);
    const off = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${providerId}`)
      .set('x-api-key', org.adminKey)
      .send({ directorySync: false });
    expect(off.status).toBe(200);
    const left = await tenantRows(
      h,
      org.organisationId,
      sql`SELECT id FROM jobs WHERE kind = 'sso.directory-sync' AND status = 'pending'`,
    );
    expect(left).toEqual([]);
    const stopped = await h
      .api()
      .post(`/api/v1/admin/sso/providers/${providerId}/sync`)
      .set('x-api-key', org.adminKey);
    expect(stopped.status).toBe(409);
  });

  it('when synchronisation is asked of a provider that is not Microsoft-type, or by a non-administrator, then it is refused', async () => {
    const google = await h.api().post('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey).send({
      type: 'google',
      issuer: idp.issuer,
      clientId: 'g',
      clientSecret: 'g-secret',
      directorySync: true,
    });
    expect(google.status).toBe(400);
    expect(google.body.details.map((d: { field: string }) => d.field)).toEqual(['directorySync']);
    const mapping = await h
      .api()
      .post('/api/v1/admin/sso/providers')
      .set('x-api-key', org.adminKey)
      .send({
        type: 'oidc',
        issuer: idp.issuer,
        clientId: 'o',
        clientSecret: 's',
        groupMapping: { 'bad id!': 'adviser' },
      });
    expect(mapping.status).toBe(400);
    expect(mapping.body.details[0]).toMatchObject({ field: 'groupMapping.bad id!' });
    const other = await createOrg(h);
    const foreign = await h
      .api()
      .post(`/api/v1/admin/sso/providers/${providerId}/sync`)
      .set('x-api-key', other.adminKey);
    expect(foreign.status).toBe(404);
    // The other organisation's trail has its own setting up, and nothing of this one.
    const theirs = await h.api().get('/api/v1/audit-events?limit=100').set('x-api-key', other.adminKey);
    expect(theirs.body.events.length).toBeGreaterThan(0);
    expect(
      theirs.body.events
        .filter(
          (e: { target: { type: string } }) => e.target.type === 'user' || e.target.type === 'sso_provider',
        )
        .map((e: { action: string }) => e.action),
    ).toEqual(['user.created']);
    const badCursor = await h
      .api()
      .get('/api/v1/audit-events?startingAfter=nope')
      .set('x-api-key', org.adminKey);
    expect(badCursor.status).toBe(400);
    const unknown = await h
      .api()
      .post('/api/v1/admin/sso/providers/01900000-0000-7000-8000-000000000000/sync')
      .set('x-api-key', org.adminKey);
    expect(unknown.status).toBe(404);
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const sync = await h
      .api()
      .post(`/api/v1/admin/sso/providers/${providerId}/sync`)
      .set('x-api-key', adviser.key);
    expect(sync.status).toBe(403);
    const audit = await h.api().get('/api/v1/audit-events').set('x-api-key', adviser.key);
    expect(audit.status).toBe(403);
    expect(audit.body).toMatchObject({ success: false });
    expect(JSON.stringify(h.logs)).not.toContain(SECRET);
  });
});
