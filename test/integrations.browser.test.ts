import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { STAFF_PASSWORD, staffUser } from './support/staff';

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

async function signedInPage(email: string, next: string, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
  const page = await context.newPage();
  await page.goto(`${h.baseUrl}${next}`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await page.waitForLoadState('load');
  return page;
}

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
