import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { STAFF_PASSWORD, staffUser } from './support/staff';

let h: Harness;
let browser: Browser;
let org: TestOrg;
let partner: http.Server;
let callback: string;
/** What the partner application's callback received. */
const received: URLSearchParams[] = [];
const shots = path.join(__dirname, '..', 'docs', 'screenshots');

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Claes');
  // The partner application's own web server: its redirect URI, on 127.0.0.1.
  partner = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Partner CRM</title><h1>Connected</h1></html>');
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  await h.close();
  await new Promise((resolve) => partner.close(resolve));
});

describe('authorization code with PKCE in Chromium', () => {
  it('when an adviser on a phone follows a partner app’s authorization link, then they sign in, read the consent page, allow with the keyboard and the app gets a code that buys a token', async () => {
    const client = await h
      .api()
      .post('/api/v1/admin/oauth/clients')
      .set('x-api-key', org.adminKey)
      .send({
        name: 'Partner CRM',
        type: 'public',
        grants: ['authorization_code', 'refresh_token'],
        scopes: ['read', 'create'],
        redirectUris: [callback],
      });
    expect(client.status).toBe(201);
    const adviser = await staffUser(h, org, ['adviser'], 'Anna Claes');
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const authorizeUrl = `${h.baseUrl}/api/v1/auth/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.body.clientId,
      redirect_uri: callback,
      scope: 'read create',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`;

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(authorizeUrl);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('E-mail address').fill(adviser.email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/api\/v1\/auth\/oauth\/authorize/);

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Allow Partner CRM to use ActionDesk for you?',
    );
    const can = await page.getByRole('list').last().textContent();
    expect(can).toContain('See your contacts');
    expect(can).toContain('send actions to contacts');
    expect(await page.textContent('main')).toContain(`go back to 127.0.0.1:${new URL(callback).port}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'oauth-consent-phone.png'), fullPage: true });

    // Keyboard only: the Allow button is reached with Tab and pressed with Enter.
    const focused = () => page.locator(':focus').textContent();
    for (let i = 0; i < 20 && (await page.locator(':focus').count()) === 0; i++)
      await page.keyboard.press('Tab');
    for (let i = 0; i < 20 && (await focused()) !== 'Allow'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Allow');
    await Promise.all([page.waitForURL(/\/callback\?/), page.keyboard.press('Enter')]);
    expect(await page.textContent('h1')).toBe('Connected');
    await context.close();

    const back = received.at(-1) as URLSearchParams;
    expect(back.get('state')).toBe(state);
    const res = await h
      .api()
      .post('/api/v1/auth/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        client_id: client.body.clientId,
        code: back.get('code') as string,
        redirect_uri: callback,
        code_verifier: verifier,
      });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('read create');
    const me = await h
      .api()
      .post('/api/v1/customers')
      .set('Authorization', `Bearer ${res.body.access_token}`)
      .send({ data: { Email: 'from-partner@example.test', FirstName: 'Via', LastName: 'Partner' } });
    expect(me.status).toBe(201);

    // An administrator looks at the client's tokens on a laptop and revokes the adviser's consent.
    const admin = await staffUser(h, org, ['administrator'], 'Iris Peeters');
    const laptop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await laptop.newPage();
    await desk.goto(`${h.baseUrl}/staff/integrations/clients/${client.body._id}`);
    await desk.getByLabel('E-mail address').fill(admin.email);
    await desk.getByLabel('Password').fill(STAFF_PASSWORD);
    await desk.getByLabel('Password').press('Enter');
    await desk.waitForURL(/\/staff\/integrations\/clients\//);
    await expect(desk.getByRole('heading', { name: 'Live tokens (2)' }).count()).resolves.toBe(1);
    const rows = await desk.locator('tbody tr').allTextContents();
    expect(rows.map((r) => r.startsWith('Access token') || r.startsWith('Refresh token'))).toEqual([
      true,
      true,
    ]);
    expect(rows.every((r) => r.includes('Anna Claes') && r.includes('read create'))).toBe(true);
    expect(await seriousA11yViolations(desk)).toEqual([]);
    await desk.screenshot({ path: path.join(shots, 'staff-oauth-client-laptop.png'), fullPage: true });
    desk.once('dialog', (dialog) => void dialog.accept()); // it asks first
    await desk.getByRole('button', { name: /Revoke the refresh token of Anna Claes/ }).click();
    await desk.getByText('The token was revoked').waitFor();
    await expect(desk.getByText('No live token.').count()).resolves.toBe(1);
    await laptop.close();
    const after = await h
      .api()
      .get('/api/v1/customers')
      .set('Authorization', `Bearer ${res.body.access_token}`);
    expect(after.status).toBe(401);
  });
});
