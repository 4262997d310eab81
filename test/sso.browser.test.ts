import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createContact, createOrg, type TestOrg, tenantRows } from './support/fixtures';
import type { Harness } from './support/harness';
import { type IdentityProvider, startIdentityProvider, startSsoHarness } from './support/identity-provider';
import { STAFF_PASSWORD, staffUser } from './support/staff';

let h: Harness;
let browser: Browser;
/** Kantoor Claes signs in with a Google-type provider; Fabrikam with a Microsoft-type one. */
let claes: TestOrg;
let fabrikam: TestOrg;
let google: IdentityProvider;
let microsoft: IdentityProvider;
let googleId: string;
let microsoftId: string;
const SECRET_A = 'google-client-secret-f1b2c3d4e5';
const SECRET_B = 'entra-client-secret-a9b8c7d6e5';
const shots = path.join(__dirname, '..', 'docs', 'screenshots');
const contexts: BrowserContext[] = [];
/** Every answer the test read, to look for the client secrets in. */
const answers: string[] = [];

async function addProvider(org: TestOrg, body: Record<string, unknown>) {
  const res = await h.api().post('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey).send(body);
  answers.push(res.text);
  if (res.status !== 201) throw new Error(`provider: ${res.status} ${res.text}`);
  return res.body._id as string;
}

async function addStaff(org: TestOrg, email: string, name: string, groups = ['adviser']) {
  const res = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name, groups });
  if (res.status !== 201) throw new Error(`user: ${res.status} ${res.text}`);
  return res.body._id as string;
}

async function newPage(phone = false): Promise<Page> {
  const context = await browser.newContext(
    phone
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 900 } },
  );
  contexts.push(context);
  const page = await context.newPage();
  // Every answer of ours: pages, refusals, and the addresses of redirects.
  page.on('response', async (r) => {
    if (!r.url().startsWith(h.baseUrl)) return;
    answers.push(`${r.status()} ${r.headers().location ?? ''}`);
    if (r.status() < 300 || r.status() >= 400) answers.push(await r.text().catch(() => ''));
  });
  return page;
}

/** Opens the organisation's own sign-in address and presses the provider's button. */
async function signInAt(page: Page, org: TestOrg, button: string, next?: string) {
  await page.goto(
    `${h.baseUrl}/signin/org/${org.organisationId}${next ? `?next=${encodeURIComponent(next)}` : ''}`,
  );
  await page.getByRole('link', { name: button }).click();
  await page.waitForLoadState();
}

const problemText = (page: Page) => page.getByRole('alert').innerText();

beforeAll(async () => {
  h = await startSsoHarness();
  browser = await launchBrowser();
  google = await startIdentityProvider(h);
  microsoft = await startIdentityProvider(h);
  claes = await createOrg(h, 'Kantoor Claes');
  fabrikam = await createOrg(h, 'Fabrikam');
  googleId = await addProvider(claes, {
    type: 'google',
    issuer: google.issuer,
    clientId: 'claes.apps.example',
    clientSecret: SECRET_A,
    enabled: true,
    allowedDomains: ['claes.example'],
  });
  microsoftId = await addProvider(fabrikam, {
    type: 'microsoft',
    name: 'Fabrikam Entra ID',
    tenantId: 'fabrikam.onmicrosoft.com',
    issuer: microsoft.issuer,
    clientId: '5f0c2c1e-fabrikam',
    clientSecret: SECRET_B,
    enabled: true,
  });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await google?.stop();
  await microsoft?.stop();
  await h.close();
});

describe('staff single sign-on in Chromium (spec 5.3)', () => {
  it('when an adviser on a phone opens a deep link, gives her e-mail and signs in with the Google-type provider, then she lands on the deep link', async () => {
    await addStaff(claes, 'anna@claes.example', 'Anna Claes');
    const contactId = await createContact(h, claes, { Voornaam: 'Jan', Achternaam: 'Peeters' });
    const deepLink = `/staff/contacts/${contactId}`;
    const page = await newPage(true);
    await page.goto(`${h.baseUrl}${deepLink}`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('E-mail address').fill('Anna@Claes.example');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.getByRole('heading', { name: 'Sign in with your work account' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Kantoor Claes');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'sso-choice-phone.png'), fullPage: true });
    google.as({
      sub: 'g-1001',
      email: 'anna@claes.example',
      email_verified: true,
      hd: 'claes.example',
      name: 'Anna Claes',
    });
    // By keyboard: the button is a link, reached with Tab and followed with Enter.
    await page.getByRole('link', { name: 'Sign in with Google' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${h.baseUrl}${deepLink}`);
    await page.getByRole('heading', { name: 'Jan Peeters' }).waitFor();
    // The provider was asked for a code with PKCE (S256), a nonce, a state and the sign-in hint; the
    // provider checked the verifier against the challenge when the code was exchanged.
    const asked = google.lastAuthorization();
    expect(Object.fromEntries(asked)).toMatchObject({
      response_type: 'code',
      client_id: 'claes.apps.example',
      redirect_uri: `${h.baseUrl}/api/v1/auth/oauth/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{32}$/),
      login_hint: 'Anna@Claes.example',
    });
    const linked = await tenantRows(h, claes.organisationId, sql`SELECT subject, email FROM sso_identities`);
    expect(linked).toEqual([{ subject: 'g-1001', email: 'anna@claes.example' }]);
  });

  it('when a Fabrikam adviser uses the organisation’s own sign-in address with the Microsoft-type provider, then she lands on the deep link, and later by her subject even with a changed e-mail', async () => {
    const userId = await addStaff(fabrikam, 'lotte@fabrikam.example', 'Lotte Maes');
    const contactId = await createContact(h, fabrikam, { Voornaam: 'Els', Achternaam: 'Wouters' });
    const page = await newPage();
    await page.goto(`${h.baseUrl}/signin/org/${fabrikam.organisationId}`);
    await page.getByRole('heading', { name: 'Sign in to Fabrikam' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'sso-organisation-signin-laptop.png') });
    // Microsoft-type directories vouch for the domain (xms_edov), not with email_verified.
    microsoft.as({ sub: 'AAAA-lotte', email: 'lotte@fabrikam.example', xms_edov: true, name: 'Lotte Maes' });
    await signInAt(page, fabrikam, 'Sign in with Fabrikam Entra ID', `/staff/contacts/${contactId}`);
    await page.getByRole('heading', { name: 'Els Wouters' }).waitFor();

    const again = await newPage();
    microsoft.as({ sub: 'AAAA-lotte', email: 'lotte.maes@fabrikam.example', xms_edov: true });
    await signInAt(again, fabrikam, 'Sign in with Fabrikam Entra ID');
    expect(new URL(again.url()).pathname).toBe('/staff');
    const me = await again.locator('.me').innerText();
    expect(me).toContain('Lotte Maes');
    const users = await tenantRows<{ n: number }>(
      h,
      fabrikam.organisationId,
      sql`SELECT count(*)::int AS n FROM users`,
    );
    expect(users[0]?.n).toBe(2); // the administrator and Lotte: nobody was created
    const link = await tenantRows(
      h,
      fabrikam.organisationId,
      sql`SELECT user_id, email FROM sso_identities WHERE subject = 'AAAA-lotte'`,
    );
    expect(link).toEqual([{ user_id: userId, email: 'lotte.maes@fabrikam.example' }]);
  });

  it('when the e-mail is unknown, unverified, of another domain or of a deactivated user, then the problem page says why and nobody is signed in or created', async () => {
    const countUsers = async () =>
      (await tenantRows<{ n: number }>(h, claes.organisationId, sql`SELECT count(*)::int AS n FROM users`))[0]
        ?.n;
    const before = await countUsers();
    const page = await newPage();
    google.as({
      sub: 'g-stranger',
      email: 'stranger@claes.example',
      email_verified: true,
      hd: 'claes.example',
    });
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('There is no ActionDesk account for stranger@claes.example');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'sso-refused-laptop.png') });

    await addStaff(claes, 'piet@claes.example', 'Piet Claes');
    google.as({ sub: 'g-piet', email: 'piet@claes.example', email_verified: false, hd: 'claes.example' });
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('has no verified e-mail address');

    await addStaff(claes, 'piet@gmail.example', 'Piet Privé');
    google.as({ sub: 'g-piet2', email: 'piet@gmail.example', email_verified: true });
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('Addresses of gmail.example may not sign in');
    // A consumer Google account registered with the company's address is not of its Workspace (no hd).
    google.as({ sub: 'g-piet3', email: 'piet@claes.example', email_verified: true });
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('Addresses of claes.example may not sign in');

    const gone = await addStaff(claes, 'gone@claes.example', 'Gone Claes');
    const off = await h
      .api()
      .post(`/api/v1/admin/users/${gone}/deactivate`)
      .set('x-api-key', claes.adminKey)
      .send();
    expect(off.status).toBe(200);
    google.as({ sub: 'g-gone', email: 'gone@claes.example', email_verified: true, hd: 'claes.example' });
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('has been deactivated');

    // Not signed in: a staff page sends the browser to the sign-in page.
    await page.goto(`${h.baseUrl}/staff`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await countUsers()).toBe((before ?? 0) + 3); // only the three the test added
    const links = await tenantRows(h, claes.organisationId, sql`SELECT subject FROM sso_identities`);
    expect(links).toEqual([{ subject: 'g-1001' }]); // Anna's, from the first sign-in
  });

  it('when the state is tampered with or replayed, then the sign-in is refused', async () => {
    const page = await newPage();
    google.as({ sub: 'g-1001', email: 'anna@claes.example', email_verified: true, hd: 'claes.example' });
    const tamper = (redirect: { url: URL }) => redirect.url.searchParams.set('state', 'forged-state-value');
    google.server.service.once('beforeAuthorizeRedirect', tamper);
    await signInAt(page, claes, 'Sign in with Google');
    expect(await problemText(page)).toContain('This sign-in cannot be finished');
    await page.goto(`${h.baseUrl}/staff`);
    expect(new URL(page.url()).pathname).toBe('/signin');

    // A good sign-in, then its callback address opened again (in this browser, and in another).
    let callback = '';
    google.server.service.once('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
      callback = redirect.url.href;
    });
    await signInAt(page, claes, 'Sign in with Google');
    expect(new URL(page.url()).pathname).toBe('/staff');
    expect(callback).toContain('/api/v1/auth/oauth/callback?code=');
    const replay = await page.goto(callback);
    expect(replay?.status()).toBe(400);
    expect(await problemText(page)).toContain('This sign-in cannot be finished');
    const other = await newPage();
    const stolen = await other.goto(callback);
    expect(stolen?.status()).toBe(400);
    await other.goto(`${h.baseUrl}/staff`);
    expect(new URL(other.url()).pathname).toBe('/signin');

    // A refused sign-in spends its state too: the same callback again in the same browser → 400.
    const refusedPage = await newPage();
    google.as({ sub: 'g-nobody', email: 'nobody@claes.example', email_verified: true, hd: 'claes.example' });
    let refusedCallback = '';
    google.server.service.once('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
      refusedCallback = redirect.url.href;
    });
    await signInAt(refusedPage, claes, 'Sign in with Google');
    expect(await problemText(refusedPage)).toContain('There is no ActionDesk account');
    google.as({ sub: 'g-1001', email: 'anna@claes.example', email_verified: true, hd: 'claes.example' });
    const again = await refusedPage.goto(refusedCallback);
    expect(again?.status()).toBe(400);
    expect(await problemText(refusedPage)).toContain('This sign-in cannot be finished');
  });

  it('when the ID token is signed by another key, then it is refused', async () => {
    const jose = await import('jose');
    const { kid } = google.server.issuer.keys.toJSON()[0] as { kid: string };
    const { privateKey } = await jose.generateKeyPair('RS256');
    const page = await newPage();
    google.as({ sub: 'g-1001', email: 'anna@claes.example', email_verified: true, hd: 'claes.example' });
    // Held at the provider until the forged token (with this sign-in's nonce) is made.
    const held = google.park();
    await signInAt(page, claes, 'Sign in with Google');
    const callback = await held;
    const now = Math.floor(h.clock.now().getTime() / 1000);
    const forged = await new jose.SignJWT({
      sub: 'g-1001',
      email: 'anna@claes.example',
      email_verified: true,
      nonce: google.lastNonce(),
    })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(google.issuer)
      .setAudience('claes.apps.example')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(privateKey);
    google.server.service.once('beforeResponse', (response: { body: Record<string, unknown> }) => {
      response.body.id_token = forged;
    });
    await page.goto(callback);
    expect(await problemText(page)).toContain('could not be verified');
    expect(JSON.stringify(h.logs)).toContain('signature verification failed');
    await page.goto(`${h.baseUrl}/staff`);
    expect(new URL(page.url()).pathname).toBe('/signin');
  });

  it('when the provider is disabled, then its button is gone and a sign-in started before is refused at the callback', async () => {
    const page = await newPage();
    google.as({ sub: 'g-1001', email: 'anna@claes.example', email_verified: true, hd: 'claes.example' });
    await page.goto(`${h.baseUrl}/signin/org/${claes.organisationId}`);
    const button = `${h.baseUrl}${await page.getByRole('link', { name: 'Sign in with Google' }).getAttribute('href')}`;
    // Started before the switch: held at the provider until the administrator has disabled it.
    const held = google.park();
    await signInAt(page, claes, 'Sign in with Google');
    const callback = await held;
    const off = await h
      .api()
      .patch(`/api/v1/admin/sso/providers/${googleId}`)
      .set('x-api-key', claes.adminKey)
      .send({ enabled: false });
    expect(off.status).toBe(200);
    const refused = await page.goto(callback);
    expect(refused?.status()).toBe(403);
    expect(await problemText(page)).toContain('Sign-in with Google is switched off');

    await page.goto(`${h.baseUrl}/signin/org/${claes.organisationId}`);
    expect(await page.getByRole('link', { name: 'Sign in with Google' }).count()).toBe(0);
    await page.goto(`${h.baseUrl}/signin`);
    await page.getByLabel('E-mail address').fill('anna@claes.example');
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    expect(await problemText(page)).toContain('No single sign-on is set up for this address');
    // The button's link, kept from before, is refused too.
    const start = await page.goto(button);
    expect(start?.status()).toBe(403);
    expect(await problemText(page)).toContain('Sign-in with Google is switched off');
    // Fabrikam's provider is not touched by Kantoor Claes's switch.
    await page.goto(`${h.baseUrl}/signin/org/${fabrikam.organisationId}`);
    expect(await page.getByRole('link', { name: 'Sign in with Fabrikam Entra ID' }).count()).toBe(1);
    expect(microsoftId).toBeTruthy();
  });

  it('after all this, then neither client secret appears in any log line, API answer or page', () => {
    const everything = JSON.stringify(h.logs) + answers.join('\n');
    expect(answers.length).toBeGreaterThan(20);
    expect(everything).not.toContain(SECRET_A);
    expect(everything).not.toContain(SECRET_B);
  });
});

describe('Integrations → OAuth Providers (staff pages)', () => {
  it('when an administrator adds a provider on the page, then it shows the redirect address, never the secret, and its history names the change', async () => {
    const admin = await staffUser(h, claes, ['administrator'], 'Ilse Claes');
    const page = await newPage();
    await page.goto(`${h.baseUrl}/signin`);
    await page.getByLabel('E-mail address').fill(admin.email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${h.baseUrl}/staff`);
    await page.goto(`${h.baseUrl}/staff/integrations`);
    await page.getByRole('link', { name: 'set up your organisation’s sign-in providers' }).click();
    await page.getByRole('heading', { name: 'OAuth Providers' }).waitFor();
    expect(await page.locator('#redirect-uri').innerText()).toBe(`${h.baseUrl}/api/v1/auth/oauth/callback`);
    // A refusal names the problem and keeps what was typed, but not the secret.
    await page.getByLabel('Another OpenID Connect provider').check();
    await page.getByLabel('Client ID').fill('claes-intranet');
    await page.getByLabel('Client secret').fill('intranet-secret-5544');
    await page.getByRole('button', { name: 'Add the provider' }).click();
    expect(await problemText(page)).toContain('Issuer URL: required for another OpenID Connect provider.');
    expect(await page.getByLabel('Client ID').inputValue()).toBe('claes-intranet');
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    await page.getByLabel('Issuer URL').fill(google.issuer);
    await page.getByLabel('Button label').fill('Claes intranet');
    await page.getByLabel('Client secret').fill('intranet-secret-5544');
    await page.getByLabel('Allowed e-mail domains').fill('claes.example');
    await page.getByRole('button', { name: 'Add the provider' }).click();
    await page.getByRole('heading', { name: 'Claes intranet' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('The provider was added');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Enabled: its button shows on the sign-in page').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();
    const history = await page.locator('#history + table').innerText();
    expect(history).toContain('Added');
    expect(history).toContain('Enabled: no → yes');
    expect(history).toContain('Client secret set');
    await page.screenshot({ path: path.join(shots, 'staff-sso-provider-laptop.png'), fullPage: true });
    expect(await page.content()).not.toContain('intranet-secret-5544');
    answers.push(await page.content());
    // The new button is on the organisation's sign-in address.
    const visitor = await newPage(true);
    await visitor.goto(`${h.baseUrl}/signin/org/${claes.organisationId}`);
    expect(await visitor.getByRole('link', { name: 'Sign in with Claes intranet' }).count()).toBe(1);
    const audit = await h
      .api()
      .get('/api/v1/audit-events?targetType=sso_provider')
      .set('x-api-key', claes.adminKey);
    expect(
      audit.body.events
        .slice(0, 2)
        .map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type]),
    ).toEqual([
      ['sso_provider.updated', 'user'],
      ['sso_provider.created', 'user'],
    ]);
    expect(audit.text).not.toContain('intranet-secret-5544');
  });
});
