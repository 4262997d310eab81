import { sql } from 'drizzle-orm';
import request from 'supertest';
import { actionWords } from '../src/i18n/desk-action';
import { staffWords } from '../src/i18n/staff';
import { samplePdf } from './support/binary';
import { englishIn } from './support/english';
import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function questionnaire(org: TestOrg, template: string, customerId: string, extra: object = {}) {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({
      type: 'qlist',
      customerId,
      questionListIds: [template],
      notificationEmail: { send: true },
      ...extra,
    });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

async function quicksign(org: TestOrg, customerId: string, title: string) {
  const file = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', org.adminKey)
    .attach('file', await samplePdf(title, 1), `${title}.pdf`);
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'quicksign', customerId, document: { fileId: file.body._id, title }, language: 'nl' });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

/** Declines a signing action on the signer's own link, as their browser would. */
async function declineAsSigner(code: string) {
  const agent = request.agent(h.server);
  const page = await agent.get(`/action/${code}?lang=nl&step=decline`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const res = await agent
    .post(`/action/${code}/decline?lang=nl`)
    .type('form')
    .send(
      new URLSearchParams([
        ['_csrf', csrf],
        ['reason', 'Het bedrag klopt niet'],
      ]).toString(),
    );
  expect(res.status).toBe(303);
}

/** Marks the action's messages as not delivered, as the worker does after its last failed attempt. */
async function failDeliveries(org: TestOrg, actionId: string) {
  await h.database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.organisation_id', ${org.organisationId}, true)`);
    await tx.execute(
      sql`UPDATE jobs SET status = 'failed', last_error = '550 5.1.1 mailbox unavailable'
           WHERE subject_id = ${actionId}::uuid AND kind = 'notification'`,
    );
  });
}

describe('the desk’s start page, language and times', () => {
  it('when an adviser opens the start page, then it lists what waits, ends soon, was declined, was not delivered and completed this week, with counts and links', async () => {
    const org = await createOrg(h);
    const template = await createReportTemplate(h, org);
    const contact = (name: string) =>
      createContact(h, org, { Voornaam: name, Achternaam: 'Peeters', Email: `${name}@example.test` });
    const waiting = await questionnaire(org, template, await contact('Wout'));
    const ending = await questionnaire(org, template, await contact('Elke'), {
      expiresAt: new Date(h.clock.now().getTime() + 2 * 86_400_000).toISOString(),
    });
    const done = await questionnaire(org, template, await contact('Dirk'));
    await submitAsContact(h, done.code, 'Dirk');
    const failed = await questionnaire(org, template, await contact('Fien'));
    await h.jobs.drain();
    await failDeliveries(org, failed._id);
    const declined = await quicksign(org, await contact('Dana'), 'Mandaat 2026');
    await declineAsSigner(declined.code);

    const user = await staffUser(h, org, ['adviser'], 'Sofie Claeys');
    const { agent } = await signedIn(h, user.email);
    const home = await agent.get('/staff').set('Accept-Language', 'en-GB,en;q=0.8');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<h1>Welcome, Sofie Claeys</h1>');
    const group = (id: string) => {
      const section =
        new RegExp(`<section class="group" aria-labelledby="group-${id}">([\\s\\S]*?)</section>`).exec(
          home.text,
        )?.[1] ?? '';
      return {
        count: Number(/<span class="count[^"]*">(\d+)<\/span>/.exec(section)?.[1]),
        links: [...section.matchAll(/href="\/staff\/actions\/([^"]+)"/g)].map((m) => m[1]),
      };
    };
    // Waiting: sent, not completed (the one ending soon and the undelivered one are waiting too).
    expect(group('waiting')).toEqual({
      count: 3,
      links: expect.arrayContaining([waiting._id, ending._id, failed._id]),
    });
    expect(group('expiring')).toEqual({ count: 1, links: [ending._id] });
    expect(group('declined')).toEqual({ count: 1, links: [declined._id] });
    expect(group('failed')).toEqual({ count: 1, links: [failed._id] });
    expect(group('completed')).toEqual({ count: 1, links: [done._id] });
    // Each row names the contact and its moment in the organisation's zone.
    expect(home.text).toContain(
      '>Elke Peeters</a><span class="sub">Questionnaire · Sent · <time datetime="2026-03-04T09:00:00.000Z" title="Europe/Brussels">4 Mar 2026, 10:00 CET</time>',
    );

    // "Only mine": the adviser sent none of them.
    const mine = await agent.get('/staff?mine=1');
    expect(mine.text).toContain('<a href="/staff?mine=1" aria-current="page">Only mine</a>');
    expect([...mine.text.matchAll(/<span class="count zero">0<\/span>/g)]).toHaveLength(5);

    // The list shows a whole group.
    const list = await agent.get('/staff/actions?view=declined');
    expect(list.text).toContain('1 action');
    expect(list.text).toContain(`href="/staff/actions/${declined._id}">Dana Peeters</a>`);
    expect(list.text).toContain('<option value="declined" selected>Declined</option>');
    const bad = await agent.get('/staff/actions?view=everything');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('view');
  });

  it('when an adviser sends an invitation again, then a new invitation goes out now, the trail says so, and a closed action refuses it', async () => {
    const org = await createOrg(h);
    const template = await createReportTemplate(h, org);
    const c = await createContact(h, org, {
      Voornaam: 'Noor',
      Achternaam: 'Maes',
      Email: 'noor@example.test',
    });
    const a = await questionnaire(org, template, c);
    await h.jobs.drain();
    const user = await staffUser(h, org, ['adviser'], 'Sofie Claeys');
    const { agent } = await signedIn(h, user.email);
    const page = await agent.get(`/staff/actions/${a._id}`);
    expect(page.text).toContain(`action="/staff/actions/${a._id}/resend"`);
    h.clock.advance(3_600_000);
    const sent = await agent
      .post(`/staff/actions/${a._id}/resend`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`/staff/actions/${a._id}?done=resent`);
    await h.jobs.drain();
    const detail = await h.api().get(`/api/v1/sessionrequests/${a._id}`).set('x-api-key', org.adminKey);
    const invitations = detail.body.notifications.filter(
      (n: { purpose: string }) => n.purpose === 'invitation',
    );
    expect(invitations.map((n: { status: string; sentAt: string }) => [n.status, n.sentAt])).toEqual([
      ['sent', '2026-03-02T09:00:00.000Z'],
      ['sent', new Date(h.clock.now()).toISOString()],
    ]);
    const after = await agent.get(sent.headers.location!);
    expect(after.text).toContain('The invitation is on its way again.');
    expect(after.text).toContain('Invitation sent to Noor Maes by e-mail.</li>');
    const trail = await h.api().get(`/api/v1/audit-events?targetId=${a._id}`).set('x-api-key', org.adminKey);
    expect(trail.body.events.map((e: { action: string }) => e.action)).toContain(
      'session_request.invitation_resent',
    );

    await agent
      .post(`/staff/actions/${a._id}/withdraw`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    const refused = await agent
      .post(`/staff/actions/${a._id}/resend`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Cannot send the invitation of a deactivated action again');
  });

  it('when an adviser chooses Dutch, then every desk page is Dutch with no English left, times in the zone; French follows the browser until one is chosen', async () => {
    const org = await createOrg(h);
    const template = await createReportTemplate(h, org);
    const c = await createContact(h, org, {
      Voornaam: 'Jana',
      Achternaam: 'Wouters',
      Email: 'jana@example.test',
    });
    const a = await questionnaire(org, template, c);
    await h.jobs.drain();
    await submitAsContact(h, a.code, 'Jana');
    await h.jobs.drain();
    const s = await quicksign(org, c, 'Mandaat 2026');
    await declineAsSigner(s.code);
    const user = await staffUser(h, org, ['adviser'], 'Sofie Claeys');
    const { agent } = await signedIn(h, user.email);

    // No choice yet: the browser's language (French first, then Dutch).
    const french = await agent.get('/staff').set('Accept-Language', 'fr-BE,fr;q=0.9,nl;q=0.5');
    expect(french.text).toContain('<html lang="fr">');
    expect(french.text).toContain('<h1>Bienvenue, Sofie Claeys</h1>');
    const settings = await agent.get('/staff/settings').set('Accept-Language', 'fr-BE');
    expect(settings.text).toContain('Celle de mon navigateur (actuellement : Français)');

    const saved = await agent
      .post('/staff/settings')
      .type('form')
      .send({ _csrf: csrfIn(settings.text), language: 'nl', notify: 'digest' });
    expect(saved.status).toBe(303);
    for (const path of [
      '/staff',
      '/staff/actions',
      '/staff/actions?view=declined',
      `/staff/actions/${a._id}`,
      `/staff/actions/${s._id}`,
      '/staff/contacts',
      `/staff/contacts/${c}`,
      `/staff/contacts/${c}/edit`,
      '/staff/contacts/new',
      '/staff/settings?done=saved',
      // The send flow: contacts, options, the document step, what was sent.
      '/sessionrequests/new',
      `/sessionrequests/new?contact=${c}&step=options`,
      `/sessionrequests/new?contact=${c}&step=document`,
      `/sessionrequests/sent?id=${s._id}`,
    ]) {
      const page = await agent.get(path).set('Accept-Language', 'en-GB,en');
      expect({ path, status: page.status, lang: /<html lang="(\w+)">/.exec(page.text)?.[1] }).toEqual({
        path,
        status: 200,
        lang: 'nl',
      });
      expect({ path, english: englishIn(page.text) }).toEqual({ path, english: [] });
      // Every moment is in the organisation's zone, named.
      for (const t of page.text.matchAll(/<time datetime="[^"]+" title="([^"]+)">([^<]+)<\/time>/g)) {
        expect(t[1]).toBe('Europe/Brussels');
        expect(t[2]).toMatch(/^\d{1,2} \w+\.? 2026, \d\d:\d\d (CET|CEST)$/);
      }
    }
    // A refused send says every problem in the form's Dutch words.
    const step = await agent.get(`/sessionrequests/new?contact=${c}&step=options`);
    const refused = await agent
      .post('/sessionrequests/new')
      .type('form')
      .send({
        _csrf: csrfIn(step.text),
        contact: c,
        reminder1Days: '400',
        expiresOn: 'morgen',
      });
    expect(refused.status).toBe(400);
    expect(englishIn(refused.text)).toEqual([]);
    for (const said of [
      'Eerste herinnering: geef een aantal dagen van 1 tot 365',
      'Link geldig tot: geef een datum zoals 2026-12-31',
      'Uitnodiging versturen via: kies e-mail, sms of beide',
    ])
      expect(refused.text).toContain(`<li class="error">${said}</li>`);
    const noTemplate = await agent
      .post('/sessionrequests/new')
      .type('form')
      .send({ _csrf: csrfIn(step.text), contact: c, email: 'yes' });
    expect(noTemplate.text).toContain(
      '<li class="error">Vragenlijstsjablonen: kies minstens één sjabloon</li>',
    );
    expect(englishIn(noTemplate.text)).toEqual([]);
    const action = await agent.get(`/staff/actions/${s._id}`);
    expect(action.text).toContain('Te ondertekenen document voor <a href=');
    expect(action.text).toContain('Jana Wouters weigerde: “Het bedrag klopt niet”');
    const back = await agent.get('/staff/settings');
    expect(back.text).toContain('id="language-nl" name="language" value="nl" checked');
    expect(back.text).toContain('id="notify-digest" name="notify" value="digest" checked');
    expect(back.text).toContain('Uw instellingen');
  });

  it('when a staff page meets an error, then its page speaks the browser’s language: the refusal’s own words in English, what the status means in Dutch and French', async () => {
    const org = await createOrg(h);
    const user = await staffUser(h, org, ['adviser'], 'Sofie Claeys');
    const { agent } = await signedIn(h, user.email);
    const missing = `/staff/actions/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;

    const dutch = await agent.get(missing).set('Accept-Language', 'nl-BE,nl;q=0.9');
    expect(dutch.status).toBe(404);
    expect(dutch.text).toContain('<html lang="nl">');
    expect(dutch.text).toContain('<h1>Niet gevonden</h1>');
    expect(dutch.text).toContain(staffWords.nl.errorTexts[404]);
    expect(englishIn(dutch.text)).toEqual([]);

    const english = await agent.get(missing).set('Accept-Language', 'en-GB');
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('<h1>Not found</h1>');
    expect(english.text).not.toContain(staffWords.en.errorTexts[404]);

    // A form whose token went stale: the page says the form expired, in French.
    const expired = await agent
      .post('/staff/settings')
      .set('Accept-Language', 'fr-BE,fr;q=0.9')
      .type('form')
      .send({ _csrf: 'stale', language: 'nl', notify: 'each' });
    expect(expired.status).toBe(403);
    expect(expired.text).toContain('<html lang="fr">');
    expect(expired.text).toContain(`<h1>${staffWords.fr.errors[403]}</h1>`);
    expect(expired.text).toContain(
      'Ce formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
    );
  });

  it('when the language check reads a page in English, then it finds the English', () => {
    // The check itself: it would fail a page that kept any of these.
    expect(
      englishIn(
        `<p>Waiting for the contact</p><button data-confirm="${actionWords.en.withdrawConfirm}">x</button>`,
      ),
    ).toEqual(expect.arrayContaining(['Waiting for the contact', actionWords.en.withdrawConfirm, 'the']));
    expect(englishIn('<p>Shown by mistake</p>')).toEqual(['by']);
    expect(englishIn('<p>Verstuurd door Sofie</p>')).toEqual([]);
  });
});
