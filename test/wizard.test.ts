import request from 'supertest';
import { samplePdf } from './support/binary';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer, startWebhookReceiver } from './support/peers';
import { csrfIn, signedIn, staffUser } from './support/staff';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
const crmKeys = new Map<TestOrg, string>();

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({
    SMTP_URL: smtp.url,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  hook = await startWebhookReceiver(() => h.clock.now());
  org = await createOrg(h);
  other = await createOrg(h);
  // The CRM's server calls with a service user's key: its setups are for any adviser.
  for (const o of [org, other]) crmKeys.set(o, (await createUserWithKey(h, o, ['adviser'], 'service')).key);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await hook.close();
});

let n = 0;
/** An adviser of `org` signed in in a browser of their own. */
async function adviser(next?: string) {
  n++;
  const user = await staffUser(h, org, ['adviser']);
  return { ...(await signedIn(h, user.email, next)), userId: user.id };
}

async function uploadPdf(o: TestOrg) {
  const res = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', o.adminKey)
    .attach('file', await samplePdf('Mandate', 2), 'mandate.pdf');
  return res.body._id as string;
}

async function quickSetup(o: TestOrg, guid = `CRM-${n}-${Date.now()}`) {
  const fileid = await uploadPdf(o);
  const res = await h
    .api()
    .post('/api/v1/quicksigningsetup')
    .set('x-api-key', crmKeys.get(o)!)
    .send({
      customer: { firstname: 'Zofia', lastname: 'Wójcik', email: `zofia.${guid}@example.test`, guid },
      document: { fileid, title: 'SEPA mandate', type: 'mandate' },
    });
  expect(res.status).toBe(200);
  return { setupId: res.body.setupId as string, guid };
}

describe('quick-signing deep link', () => {
  it('when an adviser follows it signed out, then sign-in brings them to the signing options with the contact and the PDF; sending makes a quicksign action, the contact with the guid, the invitation, and spends the setup', async () => {
    const { setupId, guid } = await quickSetup(org);
    const link = `/sessionrequests/quicksigningrequest/${setupId}`;
    const anonymous = await request(h.server).get(link);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe(`/signin?next=${encodeURIComponent(link)}`);
    const { agent, res } = await adviser(link);
    expect(res.headers.location).toBe(link);

    const page = await agent.get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-current="step">Signing options');
    expect(page.text).toContain('<dd>Zofia Wójcik</dd>');
    expect(page.text).toContain(`<dd>${guid}</dd>`);
    expect(page.text).toContain('<dd>SEPA mandate</dd>');
    expect(page.text).toContain('A new contact: made when you send.');
    const preview = /<img class="preview" src="([^"]+)"/.exec(page.text)?.[1];
    expect(preview).toMatch(/^\/staff\/files\/[0-9a-f-]+\/pages\/1$/);
    const png = await agent.get(preview!).buffer(true);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((png.body as Buffer).subarray(1, 4).toString()).toBe('PNG');

    const before = smtp.received.length;
    const sent = await agent
      .post(link)
      .type('form')
      .send({
        _csrf: csrfIn(page.text),
        email: 'yes',
        reminder1Days: '2',
        reminder2Days: '5',
        language: 'en',
        message: 'Please sign today',
      });
    expect(sent.status).toBe(303);
    const id = /^\/sessionrequests\/sent\?id=([0-9a-f-]{36})$/.exec(sent.headers.location!)?.[1];
    expect(id).toBeDefined();
    expect((await agent.get(sent.headers.location!)).text).toContain(`/staff/actions/${id}`);

    const action = await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey);
    expect(action.body).toMatchObject({
      type: 'quicksign',
      status: 'sent',
      language: 'en',
      message: 'Please sign today',
      document: { title: 'SEPA mandate', type: 'mandate' }, // the setup's type, carried to the action
      reminderSchedule: { reminder1Days: 2, reminder2Days: 5 },
      notificationEmail: { send: true },
    });
    const contacts = await h
      .api()
      .get(`/api/v1/customers?thirdpartyId=${guid}`)
      .set('x-api-key', org.adminKey);
    expect(contacts.body.customers).toEqual([
      expect.objectContaining({
        _id: action.body.customerId,
        thirdpartyId: guid,
        data: expect.objectContaining({
          Voornaam: 'Zofia',
          Achternaam: 'Wójcik',
          Email: `zofia.${guid}@example.test`,
        }),
      }),
    ]);
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((m) => m.to[0])).toEqual([`zofia.${guid}@example.test`]);

    // Used up: the page says so, a second send is refused, and the API too.
    const again = await agent.get(link);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link can no longer be used');
    const resend = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(again.text), email: 'yes' });
    expect(resend.status).toBe(410);
    const api = await h.api().get(`/api/v1/quicksigningsetup/${setupId}`).set('x-api-key', org.adminKey);
    expect(api.status).toBe(410);
    expect(api.body.error).toContain('was used on');
  });

  it('when the options are incomplete, then the step comes back naming each problem and nothing is made', async () => {
    const { setupId, guid } = await quickSetup(org);
    const link = `/sessionrequests/quicksigningrequest/${setupId}`;
    const { agent } = await adviser();
    const page = await agent.get(link);
    const bad = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(page.text), reminder1Days: '9', reminder2Days: '3', expiresOn: 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Send the invitation by: choose e-mail, SMS or both');
    expect(bad.text).toContain('Second reminder: must come after the first');
    expect(bad.text).toContain('Link works until: give a date such as 2026-12-31');
    expect(bad.text).toContain('value="9"');
    const sms = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(page.text), sms: 'yes' });
    expect(sms.status).toBe(400);
    // In the form's words, naming the signer (never the API's field names).
    expect(sms.text).toContain('class="error">Zofia Wójcik: no mobile number for the SMS invitation</li>');
    expect(sms.text).not.toContain('notificationSms');
    // Nothing was made: not even the contact the send would have created.
    const made = await h.api().get(`/api/v1/customers?thirdpartyId=${guid}`).set('x-api-key', org.adminKey);
    expect(made.body.customers).toEqual([]);
    expect(
      (await h.api().get(`/api/v1/quicksigningsetup/${setupId}`).set('x-api-key', org.adminKey)).status,
    ).toBe(200);
    const noCsrf = await agent.post(link).type('form').send({ email: 'yes' });
    expect(noCsrf.status).toBe(403);
  });

  it('when the setup is expired or of another organisation, then the page says so (410) or does not know it (404)', async () => {
    const { setupId } = await quickSetup(org);
    const foreign = await quickSetup(other);
    const { agent } = await adviser();
    const notOurs = await agent.get(`/sessionrequests/quicksigningrequest/${foreign.setupId}`);
    expect(notOurs.status).toBe(404);
    expect(notOurs.text).toContain('This link is not known here');
    expect(notOurs.text).not.toContain('SEPA mandate');
    h.clock.advance(25 * 3_600_000);
    const expired = await agent.get(`/sessionrequests/quicksigningrequest/${setupId}`);
    // The session itself outlived its idle limit: sign in again, then the page says the setup expired.
    expect(expired.status).toBe(303);
    const { agent: fresh } = await adviser();
    const page = await fresh.get(`/sessionrequests/quicksigningrequest/${setupId}`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('<h1>This link can no longer be used</h1>');
    // When, in the organisation's zone, named.
    expect(page.text).toMatch(/It expired on <time datetime="\d{4}-[^"]+" title="Europe\/Brussels">/);
  });
});

describe('whose setup it is, and whose data', () => {
  it('when an adviser makes a setup with their own key, then it is theirs: a colleague is told it does not exist, they can open it', async () => {
    const owner = await staffUser(h, org, ['adviser']);
    const key = await h
      .api()
      .post(`/api/v1/admin/users/${owner.id}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'CRM plug-in' });
    const setup = await h
      .api()
      .post('/api/v1/bc/actionsetup')
      .set('x-api-key', key.body.apiKey)
      .send({ customers: [{ email: 'own.setup@example.test' }] });
    const link = `/sessionrequests/${setup.body.actionSetupId}`;
    const { agent: colleague } = await adviser();
    const refused = await colleague.get(link);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('own.setup@example.test');
    const read = await h
      .api()
      .get(`/api/v1/bc/actionsetup/${setup.body.actionSetupId}`)
      .set('x-api-key', org.adminKey);
    expect(read.status).toBe(404);
    const { agent } = await signedIn(h, owner.email);
    const mine = await agent.get(link);
    expect(mine.status).toBe(200);
    expect(mine.text).toContain('own.setup@example.test');
  });

  it('when the CRM sends newer data for a contact found by its reference, then the page says what changes and the invitation goes to the setup’s e-mail', async () => {
    const contact = await createContact(h, org, {
      Voornaam: 'Oud',
      Achternaam: 'Adres',
      Email: 'old.address@example.test',
    });
    await h
      .api()
      .patch(`/api/v1/customers/${contact}`)
      .set('x-api-key', org.adminKey)
      .send({ thirdpartyId: 'CRM-R2' });
    const fileid = await uploadPdf(org);
    const setup = await h
      .api()
      .post('/api/v1/quicksigningsetup')
      .set('x-api-key', crmKeys.get(org)!)
      .send({
        customer: { firstname: 'Oud', lastname: 'Adres', email: 'new.address@example.test', guid: 'CRM-R2' },
        document: { fileid, title: 'Changed address', type: 'form' },
      });
    const link = `/sessionrequests/quicksigningrequest/${setup.body.setupId}`;
    const { agent } = await adviser();
    const page = await agent.get(link);
    expect(page.text).toContain('An existing contact (found by your reference).');
    expect(page.text).toContain('<li>E-mail: old.address@example.test → new.address@example.test</li>');
    const wrongDay = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(page.text), email: 'yes', expiresOn: '2026-02-30' });
    expect(wrongDay.status).toBe(400);
    expect(wrongDay.text).toContain('Link works until: give a date such as 2026-12-31');
    const before = smtp.received.length;
    const sent = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(page.text), email: 'yes' });
    expect(sent.status).toBe(303);
    const stored = await h.api().get(`/api/v1/customers/${contact}`).set('x-api-key', org.adminKey);
    expect(stored.body.data.Email).toBe('new.address@example.test');
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((m) => m.to[0])).toEqual(['new.address@example.test']);
  });
});

describe('action deep link', () => {
  it('when an adviser sends from an action setup, then each contact gets an action (found by e-mail and given the thirdpartyId, or made), and the completion webhook carries the thirdpartyId', async () => {
    const template = await createReportTemplate(h, org);
    const existing = await createContact(h, org, {
      Voornaam: 'Jan',
      Achternaam: 'Peeters',
      Email: 'jan.peeters@example.test',
    });
    const webhook = await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', org.adminKey)
      .send({ url: hook.url, events: ['sessionrequest.completed'] });
    expect(webhook.status).toBe(201);
    const setup = await h
      .api()
      .post('/api/v1/bc/actionsetup')
      .set('x-api-key', crmKeys.get(org)!)
      .send({
        customers: [
          {
            firstname: 'Jan',
            lastname: 'Peeters',
            email: 'JAN.PEETERS@example.test',
            thirdpartyId: 'BC-1001',
          },
          {
            firstname: 'Ελένη',
            lastname: 'Παπαδοπούλου',
            email: 'eleni@example.test',
            thirdpartyId: 'BC-1002',
          },
          { thirdpartyId: 'BC-UNKNOWN' },
        ],
      });
    const link = `/sessionrequests/${setup.body.actionSetupId}`;
    const { agent } = await adviser(link);
    const page = await agent.get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Jan Peeters — JAN.PEETERS@example.test');
    expect(page.text).toContain('Ελένη Παπαδοπούλου');
    expect(page.text).toContain('No contact has the reference BC-UNKNOWN');
    expect(page.text).toMatch(/id="p-2"[^>]* disabled/);

    const form = new URLSearchParams([
      ['_csrf', csrfIn(page.text)],
      ['include', '0'],
      ['include', '1'],
      ['questionListIds', template],
      ['type', 'qlist'],
      ['email', 'yes'],
      ['language', 'nl'],
    ]);
    const sent = await agent.post(link).type('form').send(form.toString());
    expect(sent.status).toBe(303);
    const ids = [...sent.headers.location!.matchAll(/id=([0-9a-f-]{36})/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);
    const actions = await Promise.all(
      ids.map(
        async (id) =>
          (await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey)).body,
      ),
    );
    expect(actions[0]).toMatchObject({ type: 'qlist', customerId: existing, questionListIds: [template] });
    const jan = await h.api().get(`/api/v1/customers/${existing}`).set('x-api-key', org.adminKey);
    expect(jan.body.thirdpartyId).toBe('BC-1001');
    const eleni = await h.api().get('/api/v1/customers?thirdpartyId=BC-1002').set('x-api-key', org.adminKey);
    expect(eleni.body.customers[0]._id).toBe(actions[1].customerId);
    expect((await agent.get(link)).status).toBe(410);

    await submitAsContact(h, actions[1].code);
    await h.jobs.drain();
    await hook.waitFor(1);
    const completed = hook.received.find((r) => r.body.type === 'sessionrequest.completed');
    expect(completed?.body).toMatchObject({
      data: {
        sessionRequest: { _id: ids[1] },
        customer: { _id: actions[1].customerId, thirdpartyId: 'BC-1002' },
      },
    });
  });

  it('when no template or no contact is chosen, then the step names it and the setup stays usable', async () => {
    const setup = await h
      .api()
      .post('/api/v1/bc/actionsetup')
      .set('x-api-key', crmKeys.get(org)!)
      .send({ customers: [{ email: 'nobody.yet@example.test' }] });
    const link = `/sessionrequests/${setup.body.actionSetupId}`;
    const { agent } = await adviser();
    const page = await agent.get(link);
    const res = await agent
      .post(link)
      .type('form')
      .send({ _csrf: csrfIn(page.text), email: 'yes' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Questionnaire templates: choose at least one template');
    expect(res.text).not.toContain('questionListIds:');
    expect((await agent.get(link)).status).toBe(200);
  });
});

describe('the wizard without a setup', () => {
  it('when an adviser searches contacts, ticks two and sends one multisigning action they both sign, then it has both as signers', async () => {
    const template = await createReportTemplate(h, org);
    const a = await createContact(h, org, {
      Voornaam: 'Piet',
      Achternaam: 'Zoeker',
      Email: 'piet.zoeker@example.test',
    });
    const b = await createContact(h, org, {
      Voornaam: 'Mia',
      Achternaam: 'Zoeker',
      Email: 'mia.zoeker@example.test',
    });
    const { agent } = await adviser();
    const search = await agent.get('/sessionrequests/new?q=zoeker');
    expect(search.status).toBe(200);
    expect(search.text).toContain('Piet Zoeker — piet.zoeker@example.test');
    expect(search.text).toContain('aria-current="step">Contacts');
    const options = await agent.get(`/sessionrequests/new?contact=${a}&contact=${b}&step=options`);
    expect(options.text).toContain('aria-current="step">Templates and notifications');
    const form = new URLSearchParams([
      ['_csrf', csrfIn(options.text)],
      ['contact', a],
      ['contact', b],
      ['questionListIds', template],
      ['type', 'multisigning'],
      ['together', 'yes'],
      ['signingOrder', 'sequential'],
      ['email', 'yes'],
    ]);
    const sent = await agent.post('/sessionrequests/new').type('form').send(form.toString());
    expect(sent.status).toBe(303);
    const [id] = [...sent.headers.location!.matchAll(/id=([0-9a-f-]{36})/g)].map((m) => m[1]!);
    const action = await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey);
    expect(action.body).toMatchObject({ type: 'multisigning', signingOrder: 'sequential' });
    expect(action.body.signers.map((s: { customerId: string }) => s.customerId)).toEqual([a, b]);
  });
});

describe('the desk’s own document to sign', () => {
  it('when an adviser uploads a PDF on the desk and sends it to two contacts in the order they set, then one quicksign action is made with those signers in that order, and every problem is named in the words of the form', async () => {
    const a = await createContact(h, org, {
      Voornaam: 'Ana',
      Achternaam: 'Desk',
      Email: 'ana.desk@example.test',
    });
    const b = await createContact(h, org, {
      Voornaam: 'Bo',
      Achternaam: 'Desk',
      Email: 'bo.desk@example.test',
    });
    const { agent } = await adviser();
    const pick = await agent.get('/sessionrequests/new?q=desk');
    expect(pick.text).toContain(
      '<button type="submit" name="step" value="document">Next: a document to sign</button>',
    );
    const step = await agent.get(`/sessionrequests/new?contact=${a}&contact=${b}&step=document`);
    expect(step.status).toBe(200);
    expect(step.text).toContain('aria-current="step">Document and signers');
    expect(step.text).toContain('enctype="multipart/form-data"');
    const upload = /action="(\/sessionrequests\/new\/upload\?[^"]+)"/
      .exec(step.text)![1]!
      .replace(/&amp;/g, '&');

    // Not a PDF: the step again, saying so, and nothing is stored.
    const wrong = await agent.post(upload).attach('file', Buffer.from('just text'), 'notes.txt');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/<li class="error">The PDF: [^<]*PDF/);
    // Without the page's token the upload is refused.
    const forged = await agent
      .post(upload.replace(/_csrf=[^&]+/, '_csrf=forged'))
      .attach('file', await samplePdf('Desk', 1), 'x.pdf');
    expect(forged.status).toBe(403);

    const pdf = await samplePdf('Partnership agreement', 3);
    const stored = await agent.post(upload).attach('file', pdf, 'Partnership agreement.pdf');
    expect(stored.status).toBe(303);
    const fileId = /file=([0-9a-f-]{36})/.exec(String(stored.headers.location))![1]!;
    expect(stored.headers.location).toBe(
      `/sessionrequests/new?step=document&contact=${a}&contact=${b}&file=${fileId}`,
    );
    const preview = await agent.get(stored.headers.location!);
    expect(preview.text).toContain('<h2 id="doc-h">Partnership agreement.pdf</h2>');
    expect(preview.text).toContain('3 pages');
    expect(preview.text).toContain(`src="/staff/files/${fileId}/pages/3" alt="Page 3 of 3"`);
    expect(preview.text).toContain('value="Partnership agreement"'); // the title, from the file's name
    const image = await agent.get(`/staff/files/${fileId}/pages/1`);
    expect(image.headers['content-type']).toBe('image/png');

    // Every problem at once, in the form's words; nothing is made.
    const before = await h.api().get('/api/v1/sessionrequests?limit=100').set('x-api-key', org.adminKey);
    const refused = await agent
      .post('/sessionrequests/new/document')
      .type('form')
      .send(
        new URLSearchParams([
          ['_csrf', csrfIn(preview.text)],
          ['fileId', fileId],
          ['title', '  '],
          ['contact', a],
          ['position', '2'],
          ['contact', b],
          ['position', '1'],
          ['signingOrder', 'sequential'],
          ['reminder1Days', 'soon'],
        ]).toString(),
      );
    expect(refused.status).toBe(400);
    const problems = [...refused.text.matchAll(/<li class="error">([^<]+)<\/li>/g)].map((m) => m[1]);
    expect(problems).toEqual([
      'Title of the document: give the document a name',
      'First reminder: give a number of days from 1 to 365',
      'Send the invitation by: choose e-mail, SMS or both',
    ]);
    expect(refused.text).toContain('id="sequential" name="signingOrder" value="sequential" checked');
    const after = await h.api().get('/api/v1/sessionrequests?limit=100').set('x-api-key', org.adminKey);
    expect(after.body.total).toBe(before.body.total);

    const sent = await agent
      .post('/sessionrequests/new/document')
      .type('form')
      .send(
        new URLSearchParams([
          ['_csrf', csrfIn(refused.text)],
          ['fileId', fileId],
          ['title', 'Partnership agreement 2026'],
          ['contact', a],
          ['position', '2'],
          ['contact', b],
          ['position', '1'],
          ['signingOrder', 'sequential'],
          ['email', 'yes'],
          ['language', 'en'],
        ]).toString(),
      );
    expect(sent.status).toBe(303);
    const id = /id=([0-9a-f-]{36})/.exec(String(sent.headers.location))![1]!;
    const action = await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey);
    expect(action.body).toMatchObject({
      type: 'quicksign',
      signingOrder: 'sequential',
      language: 'en',
      document: expect.objectContaining({ fileId, title: 'Partnership agreement 2026' }),
    });
    // Bo was put first.
    expect(action.body.signers.map((s: { customerId: string }) => s.customerId)).toEqual([b, a]);
  });
});
