import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { sentenceWords } from '../src/i18n/desk-audit-sentences';
import { storyOf } from '../src/modules/desk/audit-story';
import { samplePdf } from './support/binary';
import { englishIn } from './support/english';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness({ TIME_ZONE: 'Europe/Brussels' });
  org = await createOrg(h, 'Kantoor Peeters');
});
afterAll(async () => {
  await h.close();
});

/** What a person reads in the trail's table: each row's sentence, without its folded details. */
function sentences(page: string): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...body.matchAll(/<tr>[\s\S]*?<\/time><\/td><td>([\s\S]*?)<details>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

async function scenario() {
  const sofie = await createUserWithKey(h, org, ['adviser'], 'staff', 'Sofie Claeys');
  h.clock.set('2026-03-02T09:00:00.000Z');
  const jan = await createContact(h, org, {
    Voornaam: 'Jan',
    Achternaam: 'Peeters',
    Email: 'jan@example.test',
  });
  const file = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', sofie.key)
    .attach('file', await samplePdf('Mandaat 2026', 1), 'mandaat.pdf');
  const sign = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', sofie.key)
    .send({ type: 'quicksign', customerId: jan, document: { fileId: file.body._id, title: 'Mandaat 2026' } });
  expect(sign.status).toBe(201);
  // Jan declines on his own link.
  const agent = request.agent(h.server);
  const page = await agent.get(`/action/${sign.body.code}?lang=nl&step=decline`);
  const declined = await agent
    .post(`/action/${sign.body.code}/decline?lang=nl`)
    .type('form')
    .send({ _csrf: csrfIn(page.text), reason: 'Het bedrag klopt niet' });
  expect(declined.status).toBe(303);
  // Another contact answers a questionnaire: not part of Jan's trail.
  const template = await createReportTemplate(h, org);
  const els = await createContact(h, org, { Voornaam: 'Els', Achternaam: 'Maes' });
  const asked = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: els, questionListIds: [template] });
  await submitAsContact(h, asked.body.code, 'Els');
  await h.jobs.drain();
  return { sofie, jan, els, action: sign.body._id as string, other: asked.body._id as string };
}

describe('the audit trail in sentences', () => {
  it('when an office manager opens an action’s trail from its page, then each change is a sentence naming who did what, linked, with its details folded; a contact’s and a person’s trails narrow it', async () => {
    const s = await scenario();
    const admin = await staffUser(h, org, ['administrator'], 'Ann Admin');
    const { agent } = await signedIn(h, admin.email);
    const actionPage = await agent.get(`/staff/actions/${s.action}`);
    expect(actionPage.text).toContain(`<a href="/staff/audit?action=${s.action}">Audit trail</a>`);

    const trail = await agent.get(`/staff/audit?action=${s.action}`);
    expect(trail.status).toBe(200);
    expect(trail.text).toContain('Only about the action: <strong>‘Mandaat 2026’</strong>');
    const told = sentences(trail.text);
    expect(told).toEqual(
      expect.arrayContaining([
        'Sofie Claeys (API key) created the action ‘Mandaat 2026’.',
        'Jan Peeters declined to sign ‘Mandaat 2026’.',
        'Jan Peeters declined ‘Mandaat 2026’.',
      ]),
    );
    expect(told.join('\n')).not.toContain('Els');
    expect(trail.text).toContain(`<a href="/staff/actions/${s.action}">‘Mandaat 2026’</a>`);
    expect(trail.text).toContain(`<a href="/staff/contacts/${s.jan}">Jan Peeters</a>`);
    expect(trail.text).toContain(`<a href="/staff/users/${s.sofie.userId}">Sofie Claeys (API key)</a>`);
    expect(trail.text).toMatch(
      /<details><summary>Details<\/summary><dl class="facts"><dt>What happened<\/dt><dd><code>session_request.created<\/code>/,
    );
    // Times in the organisation's zone, named.
    expect(trail.text).toContain('title="Europe/Brussels">2 Mar 2026, 10:00 CET</time>');

    // The contact's trail: their record, their actions; from their page.
    const contactPage = await agent.get(`/staff/contacts/${s.jan}`);
    expect(contactPage.text).toContain(`href="/staff/audit?contact=${s.jan}"`);
    const theirs = sentences((await agent.get(`/staff/audit?contact=${s.jan}`)).text);
    expect(theirs.some((t) => / added the contact Jan Peeters\.$/.test(t))).toBe(true);
    expect(theirs).toContain('Jan Peeters declined to sign ‘Mandaat 2026’.');
    expect(theirs.join('\n')).not.toContain('Els');
    const els = sentences((await agent.get(`/staff/audit?contact=${s.els}`)).text);
    expect(els.some((t) => /^Els Maes answered .+\.$/.test(t))).toBe(true);

    // One person's changes.
    const hers = sentences((await agent.get(`/staff/audit?person=${s.sofie.userId}`)).text);
    expect(hers.length).toBeGreaterThan(0);
    expect(hers.every((t) => t.startsWith('Sofie Claeys (API key) '))).toBe(true);
    const people = await agent.get('/staff/audit');
    expect(people.text).toContain(`<option value="${s.sofie.userId}">Sofie Claeys</option>`);
  });

  it('when a signer signs, then the sentence says so; a removed user and ActionDesk itself are named', () => {
    const w = sentenceWords.en;
    const names = {
      people: new Map(),
      contact: (id: string) => (id === 'c1' ? 'Jan Peeters' : null),
      subjects: {
        actions: new Map([['a1', { title: 'Mandaat 2026', type: 'quicksign', customerId: 'c1' }]]),
        parts: new Map([['g1', { actionId: 'a1', customerId: 'c1' }]]),
      },
    };
    const event = (over: object) => ({
      _id: 'e',
      at: '2026-03-02T09:00:00.000Z',
      actor: { type: 'contact' as const, userId: null, credentialId: null, label: null },
      action: 'signer.updated',
      target: { type: 'signer', id: 'g1' },
      summary: { status: { before: 'pending', after: 'signed' } },
      requestId: null,
      address: null,
      ...over,
    });
    const signed = storyOf(event({}), names, w, { quicksign: 'Quick signature' });
    expect(signed).toEqual({
      template: '{who} signed {what}',
      who: { text: 'Jan Peeters', href: '/staff/contacts/c1' },
      what: { text: '‘Mandaat 2026’', href: '/staff/actions/a1' },
    });
    const code = storyOf(event({ summary: { codeHash: 'replaced' } }), names, w, {});
    expect(code.template).toBe('{who} received a code to sign {what}');
    const expired = storyOf(
      event({
        actor: { type: 'system', userId: null, credentialId: null, label: 'expiry' },
        action: 'session_request.updated',
        target: { type: 'session_request', id: 'a1' },
        summary: { status: { before: 'sent', after: 'expired' } },
      }),
      names,
      w,
      {},
    );
    expect(expired.template).toBe('The action {what} expired');
    const gone = storyOf(
      event({
        actor: { type: 'user', userId: 'u9', credentialId: null, label: null },
        action: 'portfolio.created',
        target: { type: 'portfolio', id: 'p1' },
        summary: { name: { before: null, after: 'Team Gent' } },
      }),
      names,
      w,
      {},
    );
    expect(gone).toEqual({
      template: '{who} added the portfolio {what}',
      who: { text: 'A removed user' },
      what: { text: '‘Team Gent’' },
    });
  });

  it('when any table’s trigger records a change, then the sentence has a noun for its kind in every language', () => {
    // The kinds the database records (each audited table's trigger names its kind) and those the code does.
    const migrations = join(__dirname, '../src/db/migrations');
    const kinds = new Set<string>(['webhook_delivery']);
    for (const f of readdirSync(migrations).filter((n) => n.endsWith('.sql')))
      for (const m of readFileSync(join(migrations, f), 'utf8').matchAll(
        /actiondesk_audit_table\('\w+', '(\w+)'/g,
      ))
        kinds.add(m[1]!);
    expect(kinds.size).toBeGreaterThan(15);
    for (const lang of ['en', 'nl', 'fr'] as const) {
      const missing = [...kinds].filter((k) => !sentenceWords[lang].nouns[k]);
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });

  it('when a Dutch administrator reads the trail, then it is in Dutch sentences with no English left', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Jan Janssens');
    const { agent } = await signedIn(h, admin.email);
    const settings = await agent.get('/staff/settings');
    await agent
      .post('/staff/settings')
      .type('form')
      .send({ _csrf: csrfIn(settings.text), language: 'nl', notify: 'none' });
    const page = await agent.get('/staff/audit?targetType=session_request');
    expect(page.text).toContain('<html lang="nl">');
    const told = sentences(page.text);
    expect(told).toEqual(
      expect.arrayContaining(['Sofie Claeys (API-sleutel) heeft de actie ‘Mandaat 2026’ aangemaakt.']),
    );
    const readable = page.text
      .replace(/<details>[\s\S]*?<\/details>/g, '')
      .replace(/<code>[^<]*<\/code>/g, '');
    expect(englishIn(readable)).toEqual([]);
  });
});
