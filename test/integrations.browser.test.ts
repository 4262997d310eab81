import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generateSealKey } from '../src/platform/signing/certificate';
import { samplePdf, samplePng } from './support/binary';
import { launchBrowser, seriousA11yViolations, signedInStaffPage } from './support/browser';
import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { staffUser } from './support/staff';

const shots = path.join(__dirname, '..', 'docs', 'screenshots');
let h: Harness;
let browser: Browser;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Haak');
  receiver = await startWebhookReceiver(() => h.clock.now());
});
afterAll(async () => {
  await browser.close();
  await receiver.close();
  await h.close();
});

const signedInPage = (email: string, next: string, width: number, height: number): Promise<Page> =>
  signedInStaffPage(browser, `${h.baseUrl}${next}`, email, { width, height }, { clipboard: true });

describe('webhooks on the Integrations page, in a browser', () => {
  it('when an administrator adds a webhook by keyboard, then the secret is copied with its button, the pages pass axe and fit a phone', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Ann Admin');
    const page = await signedInPage(admin.email, '/staff/integrations', 1280, 900);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // By keyboard: the address, every event (ticked already), then Enter on the button.
    await page.getByLabel('Address').first().focus();
    await page.keyboard.type(receiver.url);
    await page.keyboard.press('Tab');
    await page.keyboard.type('CRM production');
    await page.getByRole('button', { name: 'Add the webhook' }).focus();
    await Promise.all([page.waitForURL('**/staff/integrations/webhooks'), page.keyboard.press('Enter')]);
    expect(await page.locator('main').innerText()).toContain('The webhook was added.');
    expect(await page.locator('h1').textContent()).toBe('CRM production');
    const secret = (await page.locator('#new-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const copy = page.getByRole('button', { name: 'Copy' });
    expect(await copy.isVisible()).toBe(true);
    await copy.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A message, then the page on a phone: no sideways scroll.
    await createContact(h, org, { Voornaam: 'Mila', Email: 'mila@example.test' });
    await h.jobs.drain();
    const test = await page.locator('form[action$="/test"]').getAttribute('action');
    const own = test!.replace(/\/test$/, '');
    await page.goto(`${h.baseUrl}${own}`);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^A contact is added\s+customer\.created[\s\S]*delivered/),
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-webhook-laptop.png'), fullPage: true });
    const phone = await signedInPage(admin.email, own, 390, 844);
    const wide = await phone.evaluate(
      `[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 390).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)`,
    );
    expect(wide).toEqual([]);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.screenshot({ path: path.join(shots, 'staff-webhook-phone.png'), fullPage: true });
  });
});

describe('the organisation’s brand, in a browser', () => {
  it('when an administrator sets a light colour and a logo, then the organisation page and the contact’s page in that brand pass axe', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Bea Admin');
    const page = await signedInPage(admin.email, '/staff/settings/organisation', 1280, 900);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Name shown to contacts').fill('Haak & Zonen');
    // Too light for white text: contacts see it darkened, so the pages stay readable.
    await page.getByLabel('Colour of buttons and links').fill('#ffcc00');
    await Promise.all([
      page.waitForURL('**/staff/settings/organisation?done=saved'),
      page.getByRole('button', { name: 'Save' }).click(),
    ]);
    const logo = await samplePng(120, 40, (x) => (x < 60 ? [255, 204, 0] : [18, 53, 91]));
    await page.setInputFiles('#file', { name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await Promise.all([
      page.waitForURL('**/staff/settings/organisation?done=logo#logo'),
      page.getByRole('button', { name: 'Upload the logo' }).click(),
    ]);
    expect(await page.locator('.preview .org').textContent()).toBe('Haak & Zonen');
    expect(await page.evaluate<number>(`document.querySelector('.preview img.logo').naturalWidth`)).toBe(120);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-organisation-laptop.png'), fullPage: true });

    const contact = await createContact(h, org, { Voornaam: 'Mila', Email: 'mila.brand@example.test' });
    const file = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', await samplePdf('Mandate'), 'mandate.pdf');
    const action = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: file.body._id, title: 'Mandate' },
        language: 'en',
      });
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    await phone.goto(`${h.baseUrl}/action/${action.body.code}?lang=en`);
    expect(await phone.locator('header .org').textContent()).toBe('Haak & Zonen');
    // The logo loads under the page's content security policy (images from this site only).
    expect(await phone.evaluate<number>(`document.querySelector('header img.logo').naturalWidth`)).toBe(120);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.screenshot({ path: path.join(shots, 'contact-brand-phone.png'), fullPage: true });
  });
});

describe('test mode on the staff pages, in a browser', () => {
  it('when an administrator makes a test key by keyboard and opens the test inbox, then the invitation and its link are there, the pages pass axe and fit a phone', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Tess Admin');
    const page = await signedInPage(admin.email, `/staff/users/${org.adminId}`, 1280, 900);
    await page.getByLabel('Name of a new key').focus();
    await page.keyboard.type('CRM sandbox');
    // Tab to the mode (Live is chosen), the arrow to Test.
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: 'Test' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create an API key' }).focus();
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^adk_test_/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-user-test-key-laptop.png'), fullPage: true });

    // A test action's invitation, read on the test inbox page.
    const as = (p: string, body: object) => h.api().post(`/api/v1${p}`).set('x-api-key', key).send(body);
    const contact = await as('/customers', {
      data: { Voornaam: 'Tom', Achternaam: 'Test', Email: 'tom.test@example.test' },
    });
    const file = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', key)
      .attach('file', await samplePdf('Mandate', 1), 'mandate.pdf');
    const action = await as('/sessionrequests', {
      type: 'quicksign',
      customerId: contact.body._id,
      document: { fileId: file.body._id, title: 'Mandate 2026' },
      language: 'en',
      notificationEmail: { send: true },
    });
    expect(action.status).toBe(201);
    await h.jobs.drain();
    await page.goto(`${h.baseUrl}/staff/integrations`);
    await page.getByRole('link', { name: 'open the test inbox' }).click();
    await page.waitForURL('**/staff/integrations/test-inbox');
    expect(await page.locator('h1').textContent()).toBe('Test inbox');
    const link = page.getByRole('link', { name: action.body.url });
    expect(await link.count()).toBe(1);
    await page.locator('summary').first().click();
    expect(await page.locator('pre.message').first().isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-test-inbox-laptop.png'), fullPage: true });

    const phone = await signedInPage(admin.email, '/staff/integrations/test-inbox', 390, 844);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.screenshot({ path: path.join(shots, 'staff-test-inbox-phone.png'), fullPage: true });
  });
});

describe('the organisation’s document seal, in a browser', () => {
  it('when an administrator uploads their seal by keyboard, first with a wrong password, then the page says so on the field, takes it the second time, passes axe and fits a phone', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Cas Admin');
    const seal = generateSealKey('Kantoor Haak seal', h.clock.now());
    const page = await signedInPage(admin.email, '/staff/settings/seal', 1280, 900);
    expect(await page.locator('dl.facts strong').textContent()).toBe('The service’s seal');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const choose = () =>
      page.setInputFiles('#file', { name: 'haak.p12', mimeType: 'application/x-pkcs12', buffer: seal.p12 });
    await choose();
    await page.getByLabel('Password of the file').focus();
    await page.keyboard.type('not it');
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    await page.locator('#password-error').waitFor();
    expect(await page.locator('#password-error').textContent()).toBe('This password does not open the file.');
    expect(await page.getByRole('alert').innerText()).toContain('This password does not open the file.');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await choose();
    await page.getByLabel('Password of the file').fill(seal.passphrase);
    await Promise.all([
      page.waitForURL('**/staff/settings/seal?done=uploaded'),
      page.getByRole('button', { name: 'Upload the seal' }).click(),
    ]);
    expect(await page.getByRole('status').first().textContent()).toContain('Your seal is uploaded.');
    expect(await page.locator('dl.facts strong').textContent()).toBe('Your organisation’s own seal');
    expect(await page.locator('main').innerText()).toContain('CN=Kantoor Haak seal, O=ActionDesk');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-seal-laptop.png'), fullPage: true });

    const phone = await signedInPage(admin.email, '/staff/settings/seal', 390, 844);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.screenshot({ path: path.join(shots, 'staff-seal-phone.png'), fullPage: true });
  });
});
