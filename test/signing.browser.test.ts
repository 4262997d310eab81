import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { asBuffer, pdfsig, pdfText, samplePdf } from './support/binary';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { linksIn, startSmtpServer } from './support/peers';
import { until } from './support/until';

let h: Harness;
let browser: Browser;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const shots = path.join(__dirname, '..', 'docs', 'screenshots');
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const desktop = { viewport: { width: 1280, height: 860 } };

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

/** The text of the element that has the keyboard focus. */
const focusedText = (page: Page) => page.locator(':focus').textContent();

/** Whether the element is wholly inside the phone's viewport. */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

/**
 * After a step: the message answering it is in view and has the focus (so a screen reader reads it),
 * and so is the field that comes next. Answers the message.
 */
async function landedOn(page: Page, next?: string): Promise<string> {
  await page.waitForLoadState('load');
  await expect(page.evaluate<string>('document.activeElement && document.activeElement.id')).resolves.toBe(
    'result',
  );
  await expect(inView(page, '#result')).resolves.toBe(true);
  if (next) await expect(inView(page, next)).resolves.toBe(true);
  return (await page.locator('#result').textContent()) ?? '';
}

/** Draws a stroke on the signature pad. */
async function draw(page: Page) {
  const pad = page.getByRole('img', { name: 'Drawing area for your signature' });
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 20 + i * 22, box.y + box.height * (0.7 - 0.35 * Math.sin(i / 2)));
  await page.mouse.up();
}

/** How many pixels of the signature pad are painted. */
const painted = `(() => {
  const c = document.getElementById('pad');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
  return n;
})()`;
const paintedPixels = (page: Page) => page.evaluate<number>(painted);

async function quicksign(language: 'nl' | 'en') {
  const contact = await createContact(h, org, {
    Voornaam: 'Ελένη',
    Achternaam: 'Παπαδοπούλου',
    Email: 'eleni@example.test',
  });
  const upload = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', org.adminKey)
    .attach('file', await samplePdf('Loan agreement', 2), 'loan.pdf');
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: upload.body._id, title: 'Loan agreement 2026' },
      language,
    });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

/** Runs the job that sends the code and reads the code from the real SMTP server. */
async function mailedCode(count: number): Promise<string> {
  await h.jobs.drain();
  await smtp.waitFor(count);
  return /\b(\d{6})\b/.exec(smtp.received[count - 1]!.text)![1]!;
}

describe('signing in a real browser', () => {
  it('when the signer reads on a phone, confirms the mailed code and draws a signature, then the sealed PDF verifies with pdfsig, and a flipped byte does not', async () => {
    const action = await quicksign('en');
    const context = await browser.newContext(phone);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}/action/${action.code}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Loan agreement 2026');
    // The pages are drawn as images the strict content security policy lets through.
    const first = page.getByRole('img', { name: 'Page 1 of 2' });
    await first.scrollIntoViewIfNeeded();
    await expect(
      first.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBe(1100);
    await page.screenshot({ path: path.join(shots, 'signing-phone-document.png') });
    // axe-core finds nothing serious or critical, at every step of the way.
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Send me a code' }).click();
    // Each step lands on its message, focused and in view on the phone, with the next field under it.
    await expect(landedOn(page, '#otp')).resolves.toContain('We sent a code by e-mail');
    const code = await mailedCode(1);
    expect(smtp.received[0]!.to).toEqual(['eleni@example.test']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Code (6 digits)').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(landedOn(page, '#otp')).resolves.toContain('That code is not right. 4 tries left.');
    await page.screenshot({ path: path.join(shots, 'signing-phone-wrong-code.png') });
    await page.getByLabel('Code (6 digits)').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(landedOn(page, '#mark-typed')).resolves.toContain('You are confirmed');

    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('radio', { name: 'Draw my signature' }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await draw(page);
    const drawnBefore = await paintedPixels(page);
    expect(drawnBefore).toBeGreaterThan(100);
    // Submitted without the consent: refused, and the drawing is still there, drawn again.
    await page.getByRole('button', { name: 'Sign “Loan agreement 2026”' }).click();
    await expect(landedOn(page)).resolves.toContain('Tick the agreement to sign.');
    await expect(page.getByRole('radio', { name: 'Draw my signature' }).isChecked()).resolves.toBe(true);
    await page.locator('#pad[data-drawn]').waitFor();
    expect(await paintedPixels(page)).toBeGreaterThan(drawnBefore / 2);
    await page.getByRole('checkbox', { name: /I have read “Loan agreement 2026”/ }).check();
    await page.getByRole('button', { name: 'Sign “Loan agreement 2026”' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'signing-phone-sign.png') });
    await page.getByRole('button', { name: 'Sign “Loan agreement 2026”' }).click();
    await expect(landedOn(page)).resolves.toContain('You signed on');
    await page.screenshot({ path: path.join(shots, 'signing-phone-signed.png') });
    await h.jobs.drain();
    const list = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${action._id}`)
      .set('x-api-key', org.adminKey);
    const document = list.body.sessions[0].documents[0] as { fileUrl: string };
    const pdf = (await asBuffer(h.api().get(document.fileUrl).set('x-api-key', org.adminKey))).body as Buffer;
    const report = await pdfsig(pdf);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Total document signed');
    const text = await pdfText(pdf);
    expect(text).toContain('Signed by Ελένη Παπαδοπούλου');
    expect(text).toContain('HeadlessChrome');
    // The drawn signature is in the file as an image.
    expect(pdf.includes('/Subtype /Image')).toBe(true);
    const tampered = Buffer.from(pdf);
    tampered[20] = tampered[20]! ^ 0x01;
    expect(await pdfsig(tampered)).toContain('Digest Mismatch');
    // The signer's copy arrives by e-mail, the sealed file attached.
    const copy = smtp.received.find((m) => m.subject === 'Your signed copy of “Loan agreement 2026”')!;
    expect(copy.to).toEqual(['eleni@example.test']);
    expect(Buffer.compare(copy.attachments[0]!.content, pdf)).toBe(0);

    // The page refreshes itself while the document is sealed, then offers the copy.
    await page.getByRole('heading', { level: 1, name: 'Signed' }).waitFor({ timeout: 15_000 });
    await expect(
      page.getByRole('link', { name: 'Download your copy of the signed document (PDF)' }).isVisible(),
    ).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The check is live: an image without a text alternative is reported.
    await page.evaluate(
      'document.querySelector("main").insertAdjacentHTML("beforeend", "<img src=\\"x.png\\">")',
    );
    expect((await seriousA11yViolations(page)).join('\n')).toContain('image-alt (critical)');
    await context.close();
  });

  it('when a keyboard user signs on a desktop in Dutch, then every step is reachable by Tab and Enter, with a typed signature', async () => {
    const action = await quicksign('nl');
    const context = await browser.newContext(desktop);
    const page = await context.newPage();
    await page.goto(`${h.baseUrl}/action/${action.code}`);
    await page.screenshot({ path: path.join(shots, 'signing-desktop-document.png') });
    // The skip link is the first stop and leads past the pages to the signing step.
    await page.keyboard.press('Tab');
    await expect(focusedText(page)).resolves.toBe('Naar het ondertekenen');
    await page.keyboard.press('Enter');
    await page.getByRole('radio', { name: /Per e-mail naar e•••@example.test/ }).focus();
    await page.keyboard.press('Tab');
    const before = smtp.received.length;
    await page.keyboard.press('Enter');
    await page.getByText('We hebben een code gestuurd per e-mail').waitFor();
    const code = await mailedCode(before + 1);
    await page.getByLabel('Code (6 cijfers)').focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Uw volledige naam').inputValue()).resolves.toBe('Ελένη Παπαδοπούλου');
    await page.getByRole('checkbox', { name: /Ik heb «Loan agreement 2026» gelezen/ }).focus();
    await page.keyboard.press('Space');
    await page.screenshot({ path: path.join(shots, 'signing-desktop-sign.png'), fullPage: false });
    await page.keyboard.press('Tab');
    await expect(focusedText(page)).resolves.toBe('«Loan agreement 2026» ondertekenen');
    await page.keyboard.press('Enter');
    await page.getByText('U hebt ondertekend op').waitFor();
    await context.close();
  });

  it('when an adviser’s Dutch invitation to sign is mailed, then its HTML reads well at a phone’s and a laptop’s width, one button in view', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser'], 'staff', 'Sofie Claeys');
    const contact = await createContact(h, org, {
      Voornaam: 'Jan',
      Achternaam: 'Peeters',
      Email: 'jan.peeters@example.test',
    });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', adviser.key)
      .attach('file', await samplePdf('Mandaat', 2), 'mandaat.pdf');
    const res = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', adviser.key)
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: upload.body._id, title: 'Mandaat 2026' },
        language: 'nl',
        message: 'Zoals besproken: het mandaat voor het beheer van uw beleggingen. Bel gerust bij vragen.',
        expiresAt: '2026-12-18T16:00:00Z',
        notificationEmail: { send: true },
      });
    expect(res.status).toBe(201);
    await h.jobs.drain();
    await until(() => smtp.received.some((m) => m.to.includes('jan.peeters@example.test')));
    const mail = smtp.received.find((m) => m.to.includes('jan.peeters@example.test'))!;
    expect(mail.subject).toBe('Kantoor Peeters vraagt u «Mandaat 2026» te ondertekenen');
    for (const [size, shot] of [
      [phone, 'invitation-email-phone.png'],
      [{ viewport: { width: 800, height: 540 } }, 'invitation-email-laptop.png'],
    ] as const) {
      const context = await browser.newContext(size);
      const page = await context.newPage();
      await page.setContent(mail.html);
      const button = page.getByRole('link', { name: 'Document openen' });
      await expect(button.getAttribute('href')).resolves.toBe(res.body.url);
      expect(linksIn(mail.html)).toHaveLength(1);
      // Nothing wider than the window, and the button shows without scrolling.
      await expect(page.evaluate<boolean>('document.body.scrollWidth <= innerWidth')).resolves.toBe(true);
      await expect(inView(page, 'a')).resolves.toBe(true);
      await expect(
        page.getByText('De link is geldig tot 18 december 2026 om 17:00.').isVisible(),
      ).resolves.toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(shots, shot), fullPage: true });
      await context.close();
    }
  });
});
