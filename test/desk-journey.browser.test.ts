import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { samplePdf } from './support/binary';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { STAFF_PASSWORD, staffUser } from './support/staff';
import { until } from './support/until';

// The adviser's whole journey on the desk, as the issue puts it: sign in, add a contact, upload a PDF,
// send it to two signers one after the other, follow it to completion on the action's page, and get the
// completion e-mail. Real Chromium, real SMTP.

let h: Harness;
let browser: Browser;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const shots = path.join(__dirname, '..', 'docs', 'screenshots');
const laptop = { viewport: { width: 1280, height: 900 } };
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kantoor <desk@kantoor.test>',
    TIME_ZONE: 'Europe/Brussels',
  });
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Peeters');
});
afterAll(async () => {
  await browser?.close();
  await h.close();
  await smtp.close();
});

/** Signs on a signer's own link as their phone would: a code by e-mail, then a typed signature. */
async function signAs(url: string, name: string) {
  const link = new URL(url);
  const agent = request.agent(h.server);
  const page = await agent.get(`${link.pathname}?lang=en`);
  const csrf = () => /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const token = csrf();
  const post = (p: string, fields: [string, string][]) =>
    agent
      .post(`${link.pathname}${p}?lang=en`)
      .type('form')
      .send(new URLSearchParams([['_csrf', token], ...fields]).toString());
  const before = smtp.received.length;
  expect((await post('/sign/code', [['channel', 'email']])).status).toBe(303);
  await h.jobs.drain();
  await until(() => smtp.received.slice(before).some((m) => /^\d{6} /.test(m.subject)));
  const code = /\b(\d{6})\b/.exec(
    smtp.received.slice(before).find((m) => /^\d{6} /.test(m.subject))!.text,
  )![1]!;
  expect((await post('/sign/verify', [['code', code]])).status).toBe(303);
  h.clock.advance(60_000);
  expect(
    (
      await post('/sign', [
        ['mark', 'typed'],
        ['typedName', name],
        ['consent', 'yes'],
      ])
    ).status,
  ).toBe(303);
  await h.jobs.drain();
}

describe('the adviser’s desk, end to end', () => {
  it('when an adviser adds a contact, uploads a PDF and sends it to two signers in order, then the action page follows it to completion and the adviser gets the e-mail', async () => {
    const adviser = await staffUser(h, org, ['adviser'], 'Sofie Claeys');
    const first = await createContact(h, org, {
      Voornaam: 'Jan',
      Achternaam: 'Peeters',
      Email: 'jan@example.test',
    });
    const context = await browser.newContext(laptop);
    const page: Page = await context.newPage();
    await page.goto(`${h.baseUrl}/staff`);
    await page.getByLabel('E-mail address').fill(adviser.email);
    await page.getByLabel('Password').fill(STAFF_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Sofie Claeys' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A new contact, by keyboard.
    await page.getByRole('link', { name: 'New contact' }).click();
    await page.getByLabel('First name').fill('An');
    await page.getByLabel('Last name').fill('Peeters');
    await page.getByLabel('E-mail address').fill('an@example.test');
    await page.getByLabel('E-mail address').press('Enter');
    await page.getByText('The contact is added.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The send flow: both Peeters ticked, on to a document.
    await page.goto(`${h.baseUrl}/sessionrequests/new?q=Peeters`);
    await page.getByLabel(/Jan Peeters/).check();
    await page.getByLabel(/An Peeters/).check();
    await page.getByRole('button', { name: 'Next: a document to sign' }).click();
    const pdf = (await samplePdf('Mandaat', 2)).toString('base64');
    const drop = await page.evaluateHandle(`(() => {
      const bytes = Uint8Array.from(atob('${pdf}'), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'Mandaat 2026.pdf', { type: 'application/pdf' }));
      return data;
    })()`);
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: drop });
    await page.getByRole('heading', { level: 2, name: 'Mandaat 2026.pdf' }).waitFor();
    await page.getByLabel(/One after the other/).check();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sent' }).waitFor();
    await page.getByRole('link', { name: 'Document to sign' }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const actionId = /\/staff\/actions\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    // The signers sign in order; the adviser follows on the action's page.
    const action = await h.api().get(`/api/v1/sessionrequests/${actionId}`).set('x-api-key', org.adminKey);
    expect(action.body.signingOrder).toBe('sequential');
    const nameOf = (id: string) => (id === first ? 'Jan Peeters' : 'An Peeters');
    const [one, two] = (action.body.signers as { customerId: string }[]).map((g) => nameOf(g.customerId)) as [
      string,
      string,
    ];
    expect(new Set([one, two])).toEqual(new Set(['Jan Peeters', 'An Peeters']));
    const named = nameOf(action.body.customerId);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Document to sign for ${named}`);
    expect(await page.getByText('Signing order: One after the other').count()).toBe(1);
    await h.jobs.drain();
    await signAs(action.body.signers[0].url, one);
    await page.reload();
    const rows = page.locator('table.stack tbody tr');
    await expect(rows.nth(0).textContent()).resolves.toMatch(new RegExp(`^${one}Signed`));
    await expect(rows.nth(1).textContent()).resolves.toMatch(new RegExp(`^${two}Waiting`));
    await signAs(action.body.signers[1].url, two);
    await page.reload();
    await expect(page.locator('dl.facts .status').textContent()).resolves.toBe('Completed');
    const story = await page.locator('ol.timeline li').allTextContents();
    expect(
      story.filter((s) => /signed ‘Mandaat 2026’\.$/.test(s)).map((s) => s.replace(/^.*(CET|CEST)/, '')),
    ).toEqual([`${one} signed ‘Mandaat 2026’.`, `${two} signed ‘Mandaat 2026’.`]);
    expect(story.at(-1)).toMatch(/Everyone signed: the action is complete\.$/);
    const download = page.getByRole('link', { name: /^Download: / });
    await expect(download.count()).resolves.toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'desk-action-laptop.png'), fullPage: true });

    // The adviser's e-mail: everyone signed, with the way back to the action.
    await until(() => smtp.received.some((m) => m.to.includes(adviser.email)));
    const mail = smtp.received.find((m) => m.to.includes(adviser.email))!;
    expect(mail.subject).toBe(`Signed by everyone: Mandaat 2026 — ${named}`);
    expect(mail.text).toMatch(new RegExp(`Open the action:\\nhttps?://[^/]+/staff/actions/${actionId}`));
    expect(mail.html).toContain('Open the action');

    // The start page counts it as completed this week; on a phone too.
    await page.goto(`${h.baseUrl}/staff`);
    await expect(page.locator('#group-completed .count').textContent()).resolves.toBe('1');
    await page.screenshot({ path: path.join(shots, 'desk-home-laptop.png'), fullPage: true });
    const cookies = await context.cookies();
    const small = await browser.newContext(phone);
    await small.addCookies(cookies);
    const onPhone = await small.newPage();
    for (const [url, shot] of [
      [`${h.baseUrl}/staff`, 'desk-home-phone.png'],
      [`${h.baseUrl}/staff/actions/${actionId}`, 'desk-action-phone.png'],
    ] as const) {
      await onPhone.goto(url);
      expect(await seriousA11yViolations(onPhone)).toEqual([]);
      // Nothing wider than the phone: the tables stack.
      await expect(
        onPhone.evaluate<boolean>(
          'document.body.scrollWidth <= innerWidth && document.querySelector("main").scrollWidth <= innerWidth',
        ),
      ).resolves.toBe(true);
      await onPhone.screenshot({ path: path.join(shots, shot), fullPage: true });
    }
    await small.close();
    await context.close();
  });
});
