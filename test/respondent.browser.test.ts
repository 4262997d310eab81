import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SessionDetail, SessionList } from '../src/modules/sessions/sessions.schemas';
import { asBuffer, pdfText } from './support/binary';
import { launchBrowser, seriousA11yViolations } from './support/browser';
import { createContact, createOrg, createTemplate, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let browser: Browser;
let org: TestOrg;
let template: string;
let contact: string;
const shots = path.join(__dirname, '..', 'docs', 'screenshots');
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const desktop = { viewport: { width: 1280, height: 860 } };

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  org = await createOrg(h, 'Kantoor Peeters');
  template = await createTemplate(h, org, { name: 'Intake 2026' });
  contact = await createContact(h, org, {
    Voornaam: 'Marie',
    Achternaam: 'Claes',
    Email: 'marie@example.test',
  });
});
afterAll(async () => {
  await browser?.close();
  await h.close();
});

async function newAction() {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
      notificationEmail: { send: true },
    });
  return res.body as { _id: string; code: string };
}

async function openLink(context: BrowserContext, code: string, query = ''): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${h.baseUrl}/action/${code}${query}`);
  return page;
}

async function sessionOf(actionId: string) {
  const list = SessionList.parse(
    (await h.api().get(`/api/v1/sessions?sessionRequestId=${actionId}`).set('x-api-key', org.adminKey)).body,
  );
  return SessionDetail.parse(
    (await h.api().get(`/api/v1/sessions/${list.sessions[0]!._id}`).set('x-api-key', org.adminKey)).body,
  );
}

async function downloadedPdfText(fileUrl: string): Promise<string> {
  const res = await asBuffer(h.api().get(fileUrl).set('x-api-key', org.adminKey));
  return pdfText(res.body as Buffer);
}

describe('the contact in a real browser', () => {
  it('when the contact answers three sections with a condition, leaves, comes back and submits, then the session and its PDF hold the answers', async () => {
    const action = await newAction();
    const first = await browser.newContext(phone);
    const page = await openLink(first, action.code);
    await page.screenshot({ path: path.join(shots, 'respondent-phone-step1.png'), fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A refused step lands on its list of problems, focused and in view, with the first field under it.
    await page.getByRole('button', { name: 'Volgende' }).click();
    await page.waitForLoadState('load');
    await expect(page.evaluate<string>('document.activeElement && document.activeElement.id')).resolves.toBe(
      'result',
    );
    const box = (await page.locator('#result').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await expect(page.locator('#result').textContent()).resolves.toContain('Naam');
    await page.getByLabel('Naam (verplicht)').fill('Marie Claes');
    // The partner question appears only once "Ja" is chosen, without a round trip.
    await expect(page.getByLabel('Naam partner (optioneel)').isVisible()).resolves.toBe(false);
    await page.getByRole('radio', { name: 'Ja' }).check();
    await page.getByLabel('Naam partner (optioneel)').fill('Jan Peeters');
    await page.getByRole('button', { name: 'Volgende' }).click();
    await page.waitForURL(/step=1/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Financieel');
    await page.getByLabel('Hoog').check();
    await page.getByLabel('Bedrag (optioneel)').fill('1250');
    await page.getByRole('button', { name: 'Bewaren en later verdergaan' }).click();
    await page.waitForURL(/saved=1/);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Uw antwoorden zijn bewaard');
    await first.close(); // the contact leaves

    const second = await browser.newContext(phone);
    const again = await openLink(second, action.code, '?step=1');
    await expect(again.getByLabel('Hoog').isChecked()).resolves.toBe(true);
    await expect(again.getByLabel('Bedrag (optioneel)').inputValue()).resolves.toBe('1250');
    await again.getByRole('button', { name: 'Volgende' }).click();
    await again.waitForURL(/step=2/);
    await again.getByLabel('Opmerkingen (optioneel)').fill('Graag na 17 uur bellen.');
    await again.getByRole('button', { name: 'Naar overzicht' }).click();
    await again.waitForURL(/step=review/);
    await expect(again.locator('dl').first().textContent()).resolves.toContain('Jan Peeters');
    await again.screenshot({ path: path.join(shots, 'respondent-phone-review.png'), fullPage: true });
    expect(await seriousA11yViolations(again)).toEqual([]);
    await again.getByRole('button', { name: 'Indienen' }).click();
    await again.waitForSelector('text=Bedankt!');
    expect(await seriousA11yViolations(again)).toEqual([]);
    await h.jobs.drain(); // the report, and with it the completion
    await second.close();

    const session = await sessionOf(action._id);
    expect(session.responses.map((r) => [r.questionId, r.response])).toEqual([
      ['name', 'Marie Claes'],
      ['married', 'Ja'],
      ['partner', 'Jan Peeters'],
      ['income', 'Hoog'],
      ['amount', '1250'],
      ['remarks', 'Graag na 17 uur bellen.'],
    ]);
    const text = await downloadedPdfText(session.documents[0]!.fileUrl);
    for (const expected of [
      'Kantoor Peeters',
      'Marie Claes',
      'Intake 2026',
      'Jan Peeters',
      'Hoog',
      '1250',
      'Graag na 17 uur bellen.',
    ])
      expect(text).toContain(expected);
  });

  it('when the action is reopened, then the contact corrects an answer in French and resubmits', async () => {
    const action = await newAction();
    const context = await browser.newContext(desktop);
    const page = await openLink(context, action.code);
    await page.getByLabel('Naam (verplicht)').fill('Marie');
    await page.getByRole('radio', { name: 'Nee' }).check();
    await page.getByRole('button', { name: 'Volgende' }).click();
    await page.waitForURL(/step=1/);
    await page.getByRole('button', { name: 'Volgende' }).click();
    await page.waitForURL(/step=2/);
    await page.getByRole('button', { name: 'Naar overzicht' }).click();
    await page.waitForURL(/step=review/);
    await page.getByRole('button', { name: 'Indienen' }).click();
    await page.waitForSelector('text=Bedankt!');
    await h.jobs.drain(); // the report, and with it the completion

    const reopened = await h
      .api()
      .post(`/api/v1/sessionrequests/${action._id}/reopen`)
      .set('x-api-key', org.adminKey);
    expect(reopened.body.status).toBe('reopened');
    await page.goto(`${h.baseUrl}/action/${action.code}`);
    await page.getByRole('link', { name: 'Français' }).click();
    await page.waitForURL(/lang=fr/);
    await page.screenshot({ path: path.join(shots, 'respondent-desktop-step1.png'), fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expect(page.getByLabel('Nom (obligatoire)').inputValue()).resolves.toBe('Marie');
    await page.getByLabel('Nom (obligatoire)').fill('Marie Claes-Peeters');
    await page.getByRole('button', { name: 'Suivant' }).click();
    await page.waitForURL(/step=1/);
    await page.goto(`${h.baseUrl}/action/${action.code}?step=review&lang=fr`);
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.waitForSelector('text=Merci !');
    await context.close();

    const session = await sessionOf(action._id);
    expect(session).toMatchObject({ version: 2, language: 'fr' });
    expect(session.responses[0]).toMatchObject({ questionTitle: 'Nom', response: 'Marie Claes-Peeters' });
    expect(session.history.map((v) => [v.version, v.responses[0]?.response])).toEqual([[1, 'Marie']]);
  });

  it('when two strangers answer one campaign link in two browsers, then neither sees the other’s answers and both sessions exist', async () => {
    const created = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'campaign', questionListIds: [template] });
    const campaign = created.body as { _id: string; code: string };
    const annaContext = await browser.newContext(phone);
    const bertContext = await browser.newContext(desktop);
    const start = async (page: Page, first: string, last: string, email: string) => {
      await page.getByLabel('Voornaam (verplicht)').fill(first);
      await page.getByLabel('Achternaam (verplicht)').fill(last);
      await page.getByLabel('E-mailadres (verplicht)').fill(email);
      await page.getByRole('button', { name: 'Beginnen' }).click();
      await page.waitForSelector('text=Stap 1 van 3');
    };

    const anna = await openLink(annaContext, campaign.code);
    await anna.screenshot({ path: path.join(shots, 'campaign-phone-start.png'), fullPage: true });
    expect(await seriousA11yViolations(anna)).toEqual([]);
    await start(anna, 'Anna', 'Janssens', 'anna@example.test');
    await anna.getByLabel('Naam (verplicht)').fill('Anna Janssens');
    await anna.getByRole('radio', { name: 'Nee' }).check();
    await anna.getByRole('button', { name: 'Volgende' }).click();
    await anna.waitForURL(/step=1/);

    // Another browser on the same link: its own start page, an empty questionnaire.
    const bert = await openLink(bertContext, campaign.code);
    await expect(bert.getByLabel('Voornaam (verplicht)').inputValue()).resolves.toBe('');
    await start(bert, 'Bert', 'Peeters', 'bert@example.test');
    await expect(bert.getByLabel('Naam (verplicht)').inputValue()).resolves.toBe('');
    await expect(bert.getByRole('radio', { name: 'Nee' }).isChecked()).resolves.toBe(false);
    await bert.getByLabel('Naam (verplicht)').fill('Bert Peeters');
    await bert.getByRole('radio', { name: 'Ja' }).check();
    await bert.getByLabel('Naam partner (optioneel)').fill('Lies');
    await bert.getByRole('button', { name: 'Volgende' }).click();
    await bert.waitForURL(/step=1/);

    // Anna reviews and submits: only her answers.
    await anna.goto(`${h.baseUrl}/action/${campaign.code}?step=review`);
    const annasReview = (await anna.locator('main').textContent()) ?? '';
    expect(annasReview).toContain('Anna Janssens');
    expect(annasReview).not.toContain('Bert');
    expect(annasReview).not.toContain('Lies');
    await anna.getByRole('button', { name: 'Indienen' }).click();
    await anna.waitForSelector('text=Bedankt!');
    await h.jobs.drain(); // the report, and with it the completion

    // Bert is not thanked for Anna's submission; his review holds only his answers.
    await bert.goto(`${h.baseUrl}/action/${campaign.code}`);
    await expect(bert.locator('h1').textContent()).resolves.toBe('Over u');
    await expect(bert.getByLabel('Naam (verplicht)').inputValue()).resolves.toBe('Bert Peeters');
    await bert.goto(`${h.baseUrl}/action/${campaign.code}?step=review`);
    const bertsReview = (await bert.locator('main').textContent()) ?? '';
    expect(bertsReview).toContain('Lies');
    expect(bertsReview).not.toContain('Anna');
    await bert.getByRole('button', { name: 'Indienen' }).click();
    await bert.waitForSelector('text=Bedankt!');
    await h.jobs.drain(); // the report, and with it the completion
    await annaContext.close();
    await bertContext.close();

    const list = SessionList.parse(
      (await h.api().get(`/api/v1/sessions?sessionRequestId=${campaign._id}`).set('x-api-key', org.adminKey))
        .body,
    );
    expect(list.total).toBe(2);
    expect(list.sessions.map((s) => s.responses.map((r) => r.response)).sort()).toEqual([
      ['Anna Janssens', 'Nee'],
      ['Bert Peeters', 'Ja', 'Lies'],
    ]);
    const action = await h
      .api()
      .get(`/api/v1/sessionrequests/${campaign._id}`)
      .set('x-api-key', org.adminKey);
    expect(action.body.status).toBe('opened');
  });
});
