import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, signedInStaffPage } from './support/browser';
import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { staffUser } from './support/staff';
import { until } from './support/until';

const shots = path.join(__dirname, '..', 'docs', 'screenshots');
let h: Harness;
let browser: Browser;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Spoor');
});
afterAll(async () => {
  await browser.close();
  await h.close();
});

const signedInPage = (email: string, next: string, width = 1280): Promise<Page> =>
  signedInStaffPage(browser, `${h.baseUrl}${next}`, email, { width, height: 900 });

describe('the audit trail on the staff pages', () => {
  it('when an administrator opens Audit trail, then the changes show who, what, the changed fields, the address and the request; filters and older pages work by keyboard', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Ann Admin');
    const crm = await createUserWithKey(h, org, ['adviser'], 'service');
    h.clock.set('2026-03-02T11:00:00.000Z');
    const contact = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', crm.key)
      .set('X-Request-Id', 'crm-sync-42')
      .send({ data: { Voornaam: 'Jef', Email: 'jef@example.test' } });
    expect(contact.status).toBe(201);
    for (let i = 0; i < 55; i++) {
      await h
        .api()
        .post('/api/v1/portfolios')
        .set('x-api-key', org.adminKey)
        .send({ name: `Team ${i}` });
    }

    const page = await signedInPage(admin.email, '/staff/audit');
    expect(new URL(page.url()).pathname).toBe('/staff/audit');
    expect(await page.getByRole('link', { name: 'Audit trail' }).getAttribute('aria-current')).toBe('page');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-audit-laptop.png') });

    // Filter by keyboard: contacts changed through an API key.
    await page.getByLabel('How').focus();
    await page.getByLabel('How').selectOption('api_key');
    await page.getByLabel('What', { exact: true }).selectOption('customer');
    await page.getByRole('button', { name: 'Show' }).press('Enter');
    await page.waitForLoadState('load');
    const rows = page.getByRole('row');
    expect(await rows.count()).toBe(2);
    const row = await rows.nth(1).innerText();
    expect(row).toContain('2 Mar 2026, 12:00 CET');
    expect(row).toMatch(/\(API key\) added the contact Jef\./);
    expect(row).not.toContain('customer.created');
    // The details, folded: opened by keyboard.
    await rows.nth(1).getByText('Details').focus();
    await page.keyboard.press('Enter');
    const opened = await rows.nth(1).innerText();
    expect(opened).toContain('customer.created');
    expect(opened).toContain('data: Email, Voornaam');
    expect(opened).toContain('127.0.0.1');
    expect(opened).toContain('crm-sync-42');
    expect(opened).not.toContain('jef@example.test');
    await page.getByRole('link', { name: 'Jef' }).click();
    expect(new URL(page.url()).pathname).toBe(`/staff/contacts/${contact.body._id}`);

    // 55 portfolios and more: 50 a page, then the older ones.
    await page.goto(`${h.baseUrl}/staff/audit?targetType=portfolio`);
    expect(await page.getByRole('row').count()).toBe(51);
    await page.getByRole('link', { name: 'Older changes →' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('row').count()).toBeGreaterThan(1);
    expect(await page.getByRole('link', { name: 'Newest' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('when an adviser opens the audit trail, then it is not allowed; a bad date filter is named', async () => {
    const adviser = await staffUser(h, org, ['adviser']);
    const page = await signedInPage(adviser.email, '/staff/audit');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Not allowed');
    const admin = await staffUser(h, org, ['administrator']);
    const other = await signedInPage(admin.email, '/staff/audit', 390);
    expect(await seriousA11yViolations(other)).toEqual([]);
    await other.screenshot({ path: path.join(shots, 'staff-audit-phone.png') });
    await other.goto(`${h.baseUrl}/staff/audit?since=yesterday`);
    expect(await other.locator('main').innerText()).toContain('since');
    await page.context().close();
    await other.context().close();
  });

  it('when an administrator double-clicks a form’s button, then the form is sent once: one key, not two', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Dirk Dubbel');
    const service = await createUserWithKey(h, org, ['adviser'], 'service');
    const keysOf = async () =>
      (
        await h
          .api()
          .get(`/api/v1/admin/users/${service.userId}/apikeys?includeRevoked=true`)
          .set('x-api-key', org.adminKey)
      ).body.apiKeys as { name: string }[];
    const before = (await keysOf()).length;
    const page = await signedInPage(admin.email, `/staff/users/${service.userId}`);
    await page.getByLabel('Name of a new key').fill('Dubbelklik');
    await page.getByRole('button', { name: 'Create an API key' }).dblclick();
    // On a busy machine the send may still be on its way when the click returns: wait for the key, then
    // for the page's network to be quiet, so that a second send (what this guards against) is counted.
    await until(async () => (await keysOf()).some((k) => k.name === 'Dubbelklik'));
    await page.waitForLoadState('networkidle');
    const after = await keysOf();
    expect(after.filter((k) => k.name === 'Dubbelklik')).toHaveLength(1);
    expect(after).toHaveLength(before + 1);
  });
});
