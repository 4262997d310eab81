import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { samplePdf } from './support/binary';
import { launchBrowser, seriousA11yViolations, signInAsStaff } from './support/browser';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer, startWebhookReceiver } from './support/peers';
import { staffUser as makeStaffUser } from './support/staff';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
let browser: Browser;
let org: TestOrg;
let crmKey: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
const shots = path.join(__dirname, '..', 'docs', 'screenshots');
const laptop = { viewport: { width: 1280, height: 900 } };
const tablet = {
  viewport: { width: 820, height: 1180 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  hook = await startWebhookReceiver(() => h.clock.now());
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Claes');
  // The CRM's server calls with a service user's key: its setups are for any adviser.
  crmKey = (await createUserWithKey(h, org, ['adviser'], 'service')).key;
});
afterAll(async () => {
  await browser?.close();
  await h.close();
  await smtp.close();
  await hook.close();
});

const names = ['Anna Claes', 'Bart Peeters', 'Chloé Dubois', 'Dirk Janssens'];
let n = 0;
/** A staff user with a name the screenshots can show. */
const staffUser = (groups: string[]) => makeStaffUser(h, org, groups, names[n++] ?? `Adviser ${n}`);

/** The sign-in page, filled and sent with the keyboard. */
async function signIn(page: Page, email: string) {
  expect(new URL(page.url()).pathname).toBe('/signin');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await signInAsStaff(page, email);
}

describe('the adviser’s wizard in Chromium', () => {
  it('when an adviser follows the quick-signing deep link signed out, then they sign in, land on the signing options with the contact and the PDF, and send', async () => {
    const user = await staffUser(['adviser']);
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', await samplePdf('Beheersmandaat', 2), 'mandaat.pdf');
    const setup = await h
      .api()
      .post('/api/v1/quicksigningsetup')
      .set('x-api-key', crmKey)
      .send({
        customer: {
          firstname: 'Łucja',
          lastname: 'Nowak',
          email: 'lucja@example.test',
          gsm: '+32470123456',
          guid: 'CRM-7',
        },
        document: { fileid: upload.body._id, title: 'Beheersmandaat 2026', type: 'mandate' },
      });
    const link = `/sessionrequests/quicksigningrequest/${setup.body.setupId}`;
    const context = await browser.newContext(laptop);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}${link}`);
    await signIn(page, user.email);
    expect(new URL(page.url()).pathname).toBe(link);
    await expect(page.getByRole('heading', { level: 1 })).toBeDefined();
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Signing options');
    expect(await page.getByText('Łucja Nowak').count()).toBe(1);
    expect(await page.getByText('Beheersmandaat 2026').count()).toBe(1);
    const preview = page.getByRole('img', { name: 'First page of Beheersmandaat 2026' });
    await preview.waitFor();
    expect(
      await preview.evaluate((img) => {
        const i = img as unknown as { complete: boolean; naturalWidth: number };
        return i.complete && i.naturalWidth > 0;
      }),
    ).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'wizard-quicksign-laptop.png'), fullPage: true });

    await page.getByLabel('SMS').check();
    await page.getByLabel('Personal message in the invitation (optional)').fill('Graag vandaag ondertekenen');
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.waitForURL(/\/sessionrequests\/sent\?id=/);
    const id = new URL(page.url()).searchParams.get('id')!;
    expect(await page.getByRole('status').textContent()).toBe('The action was made.');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const action = await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey);
    expect(action.body).toMatchObject({
      type: 'quicksign',
      document: { title: 'Beheersmandaat 2026' },
      message: 'Graag vandaag ondertekenen',
      notificationEmail: { send: true },
      notificationSms: { send: true },
    });
    const before = smtp.received.length;
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    const invitation = smtp.received.slice(before).find((m) => m.to[0] === 'lucja@example.test');
    expect(invitation?.text).toContain(`/action/${action.body.code}`);

    await page.goto(`${h.baseUrl}${link}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'This link can no longer be used',
    );
    await context.close();
  });

  it('when an adviser follows the action deep link signed out, then the contacts are preselected, the contact step is skipped, and the completion webhook carries the thirdpartyId', async () => {
    const user = await staffUser(['adviser']);
    const template = await createReportTemplate(h, org);
    await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', org.adminKey)
      .send({ url: hook.url, events: ['sessionrequest.completed'] });
    const setup = await h
      .api()
      .post('/api/v1/bc/actionsetup')
      .set('x-api-key', crmKey)
      .send({
        customers: [
          { firstname: 'Dmitri', lastname: 'Иванов', email: 'dmitri@example.test', thirdpartyId: 'BC-501' },
          { firstname: 'Sofie', lastname: 'Maes', email: 'sofie@example.test', thirdpartyId: 'BC-502' },
        ],
      });
    const link = `/sessionrequests/${setup.body.actionSetupId}`;
    const context = await browser.newContext(tablet);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}${link}`);
    await signIn(page, user.email);
    expect(new URL(page.url()).pathname).toBe(link);
    expect(await page.locator('[aria-current=step]').textContent()).toBe('Templates and notifications');
    expect(await page.getByLabel(/Dmitri Иванов/).isChecked()).toBe(true);
    expect(await page.getByLabel(/Sofie Maes/).isChecked()).toBe(true);
    await page.getByLabel(/Sofie Maes/).uncheck();
    await page.locator(`input[name=questionListIds][value="${template}"]`).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'wizard-action-tablet.png'), fullPage: true });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(/\/sessionrequests\/sent\?id=/);
    const ids = new URL(page.url()).searchParams.getAll('id');
    expect(ids).toHaveLength(1);
    const action = (await h.api().get(`/api/v1/sessionrequests/${ids[0]}`).set('x-api-key', org.adminKey))
      .body;
    expect(action).toMatchObject({ type: 'qlist', questionListIds: [template] });

    const before = smtp.received.length;
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((m) => m.to[0])).toContain('dmitri@example.test');
    await submitAsContact(h, action.code);
    await h.jobs.drain();
    await hook.waitFor(1);
    const completed = hook.received.find((r) => r.body.type === 'sessionrequest.completed');
    expect(completed?.body).toMatchObject({ data: { customer: { thirdpartyId: 'BC-501' } } });
    await context.close();
  });

  it('when an administrator creates an API key on a user’s page, then it works against the API, and revoking it there makes the next call 401', async () => {
    const admin = await staffUser(['administrator']);
    const robot = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', org.adminKey)
      .send({ email: 'erp@kantoor.test', name: 'ERP koppeling', kind: 'service', groups: ['adviser'] });
    const context = await browser.newContext(laptop);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}/staff/users`);
    await signIn(page, admin.email);
    expect(new URL(page.url()).pathname).toBe('/staff/users');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'ERP koppeling' }).click();
    await page.waitForURL(`**/staff/users/${robot.body._id}`);
    await page.getByLabel('Name of a new key').fill('ERP productie');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    await page.waitForLoadState('load');
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^adk_[0-9A-Za-z]{38}$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'staff-user-apikeys.png'), fullPage: true });
    expect((await h.api().get('/api/v1/customers').set('x-api-key', key)).status).toBe(200);

    // Revoking asks first, naming the consequence; cancelled, the key still works.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Revoke the key ERP productie' }).click();
    expect(asked).toEqual([
      'Revoke the key “ERP productie”? Every call made with it is refused from now on. This cannot be undone.',
    ]);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', key)).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke the key ERP productie' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('The key was revoked');
    const refused = await h.api().get('/api/v1/customers').set('x-api-key', key);
    expect(refused.status).toBe(401);
    await context.close();
  });

  it('when an administrator goes through the staff pages with the keyboard, then the skip link comes first and axe finds no serious or critical violation on any of them', async () => {
    const admin = await staffUser(['administrator']);
    const contacts = await h.api().get('/api/v1/customers').set('x-api-key', org.adminKey);
    const contactId = contacts.body.customers[0]._id as string;
    const actions = await h.api().get('/api/v1/sessionrequests').set('x-api-key', org.adminKey);
    const actionId = actions.body.sessionRequests[0]._id as string;
    const context = await browser.newContext(laptop);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}/staff`);
    await signIn(page, admin.email);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Skip to content');
    const pages = [
      '/staff',
      '/staff/actions',
      '/staff/actions?status=completed&q=dmitri',
      `/staff/actions/${actionId}`,
      '/staff/contacts',
      `/staff/contacts/${contactId}`,
      '/staff/users',
      `/staff/users/${admin.id}`,
      '/staff/integrations',
      '/sessionrequests/new',
      `/sessionrequests/new?contact=${contactId}&step=options`,
    ];
    for (const path of pages) {
      await page.goto(`${h.baseUrl}${path}`);
      expect({ path, violations: await seriousA11yViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.goto(`${h.baseUrl}/staff/actions`);
    await page.screenshot({ path: path.join(shots, 'staff-actions-laptop.png'), fullPage: true });
    await page.goto(`${h.baseUrl}/staff/actions/${actionId}`);
    await page.screenshot({ path: path.join(shots, 'staff-action-laptop.png'), fullPage: true });
    // Signed out, the public staff pages too.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    for (const path of ['/signin', '/password/forgot', '/password/not-a-real-token']) {
      await page.goto(`${h.baseUrl}${path}`);
      expect({ path, violations: await seriousA11yViolations(page) }).toEqual({ path, violations: [] });
    }
    await context.close();
  });

  it('when an adviser drops a PDF on the desk, then its pages show, and the send form is done with the keyboard alone: two signers in the order set, one after the other', async () => {
    const user = await staffUser(['adviser']);
    const first = await createContact(h, org, {
      Voornaam: 'Sofie',
      Achternaam: 'Claeys',
      Email: 'sofie@example.test',
    });
    const second = await createContact(h, org, {
      Voornaam: 'Tom',
      Achternaam: 'Claeys',
      Email: 'tom@example.test',
    });
    for (const [viewport, name] of [
      [laptop, 'laptop'],
      [
        { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
        'phone',
      ],
    ] as const) {
      const context = await browser.newContext(viewport);
      const page = await context.newPage();
      await page.goto(`${h.baseUrl}/sessionrequests/new?step=document&contact=${first}&contact=${second}`);
      if (new URL(page.url()).pathname === '/signin') await signIn(page, user.email);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Send a document to sign',
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
      // The file is dragged onto the box: the page takes it and shows its pages.
      const pdf = (await samplePdf('Samenwerkingsovereenkomst', 3)).toString('base64');
      const drop = await page.evaluateHandle(`(() => {
        const bytes = Uint8Array.from(atob('${pdf}'), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'Samenwerking 2026.pdf', { type: 'application/pdf' }));
        return data;
      })()`);
      await page.dispatchEvent('#drop', 'drop', { dataTransfer: drop });
      await page.getByRole('heading', { level: 2, name: 'Samenwerking 2026.pdf' }).waitFor();
      for (const n of [1, 2, 3])
        await page
          .getByRole('img', { name: `Page ${n} of 3` })
          .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.screenshot({
        path: path.join(shots, `desk-send-document-${name}.png`),
        fullPage: name === 'laptop',
      });
      if (name === 'phone') {
        await context.close();
        continue;
      }
      // The keyboard alone: the title, Tom first, one after the other, send.
      await page.getByLabel('Title of the document').focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Samenwerkingsovereenkomst 2026');
      await page.keyboard.press('Tab');
      await page.keyboard.type('2');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('1');
      await page.keyboard.press('Tab'); // all at once
      await page.keyboard.press('ArrowDown'); // one after the other
      await expect(page.getByLabel(/One after the other/).isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Send for signing' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Sent' }).waitFor();
      const id = /\/staff\/actions\/([0-9a-f-]{36})/.exec(
        (await page.getByRole('link', { name: 'Document to sign' }).getAttribute('href')) ?? '',
      )![1]!;
      const action = await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey);
      expect(action.body).toMatchObject({ type: 'quicksign', signingOrder: 'sequential' });
      expect(action.body.document.title).toBe('Samenwerkingsovereenkomst 2026');
      expect(action.body.signers.map((s: { customerId: string }) => s.customerId)).toEqual([second, first]);
      await context.close();
    }
  });
});
