import request from 'supertest';
import { asBuffer, pdfText, samplePdf, samplePng } from './support/binary';
import { createContact, createOrg, createTemplate, setNotices, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { linksIn, type ReceivedMail, startHttpReceiver, startSmtpServer } from './support/peers';
import { until } from './support/until';

// The organisation's brand where contacts meet it: every e-mail and SMS to them (over a real SMTP server
// and a real HTTP receiver as the SMS provider), their pages, and whether declining needs a code.

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startHttpReceiver>>;
let org: TestOrg;
let plain: TestOrg;
let logoUrl: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  sms = await startHttpReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ActionDesk <desk@actiondesk.test>',
    SMS_PROVIDER_URL: sms.url,
    SMS_FROM: 'ActionDesk',
  });
  org = await createOrg(h, 'Kantoor Peeters BV');
  plain = await createOrg(h, 'Kantoor Zonder Merk');
  for (const o of [org, plain]) await setNotices(h, o, o.adminId, 'none');
  const brand = await h.api().patch('/api/v1/admin/organisation/brand').set('x-api-key', org.adminKey).send({
    brandName: 'Peeters Advies',
    colour: '#1a5e20',
    mailSenderName: 'Peeters Advies',
    mailReplyTo: 'klanten@peeters.test',
    smsSender: 'Peeters',
  });
  expect(brand.status).toBe(200);
  const logo = await h
    .api()
    .put('/api/v1/admin/organisation/brand/logo')
    .set('x-api-key', org.adminKey)
    .attach('file', await samplePng(40, 20), 'logo.png');
  expect(logo.status).toBe(200);
  logoUrl = logo.body.logo.url;
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await sms.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  sms.received.length = 0;
});

const api = (o: TestOrg) => ({
  post: (path: string) => h.api().post(path).set('x-api-key', o.adminKey),
});

/** The e-mail's top line: the logo (if any) and the sender's name. */
const topOf = (mail: ReceivedMail) =>
  /<tr><td style="padding:20px 28px;border-bottom:1px solid #d0d4da;[^"]*">(.*?)<\/td><\/tr>/.exec(
    mail.html,
  )?.[1] ?? '';
/** The colour of the e-mail's button. */
const buttonColourOf = (mail: ReceivedMail) =>
  /<td style="border-radius:6px;background:(#[0-9a-f]{6})"><a href=/.exec(mail.html)?.[1];

async function quicksign(o: TestOrg, email: string) {
  const contact = await createContact(h, o, { Voornaam: 'Sien', Email: email });
  const file = await api(o)
    .post('/api/v1/files')
    .attach('file', await samplePdf('Mandate'), 'mandate.pdf');
  const res = await api(o)
    .post('/api/v1/sessionrequests')
    .send({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: file.body._id, title: 'Mandate' },
      language: 'en',
    });
  expect(res.status).toBe(201);
  return res.body.code as string;
}

const statusOf = async (o: TestOrg, code: string) => {
  const res = await h.api().get(`/api/v1/sessionrequests?limit=100`).set('x-api-key', o.adminKey);
  return (res.body.sessionRequests as { code: string; status: string }[]).find((a) => a.code === code)
    ?.status;
};

/** A signer's browser on their link: its cookies, the page's CSRF token, and the page's form posts. */
function signerBrowser(code: string) {
  const agent = request.agent(h.server);
  let csrf = '';
  const page = async (query = '') => {
    const res = await agent.get(`/action/${code}?lang=en${query}`);
    // From the page's form, or (a page without a form) from the cookie it set.
    csrf =
      /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1] ??
      /adk_csrf=([^;]+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1] ??
      csrf;
    return res;
  };
  const post = (path: string, fields: [string, string][], lang = 'en') =>
    agent
      .post(`/action/${code}${path}?lang=${lang}`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return { agent, page, post };
}

/** Asks for a code by e-mail, sends it, and answers the mail it came in. */
async function codeMail(signer: ReturnType<typeof signerBrowser>): Promise<ReceivedMail> {
  await signer.page();
  const before = smtp.received.length;
  expect((await signer.post('/sign/code', [['channel', 'email']])).status).toBe(303);
  await h.jobs.drain();
  await until(async () => smtp.received.slice(before).some((m) => /^\d{6} /.test(m.subject)));
  return smtp.received.slice(before).find((m) => /^\d{6} /.test(m.subject))!;
}

describe('the brand in the messages to contacts', () => {
  it('when an invitation goes out, then the e-mail is from the brand’s sender name with its reply-to, name, logo and colour, and the SMS from its sender id', async () => {
    const template = await createTemplate(h, org, { name: 'Intake' });
    const contact = await createContact(h, org, {
      Voornaam: 'Marie',
      Email: 'marie@example.test',
      Telefoon: '+32470111222',
    });
    const res = await api(org)
      .post('/api/v1/sessionrequests')
      .send({
        type: 'qlist',
        customerId: contact,
        questionListIds: [template],
        language: 'en',
        notificationEmail: { send: true },
        notificationSms: { send: true },
      });
    expect(res.status).toBe(201);
    await h.jobs.drain();
    await smtp.waitFor(1);
    await until(async () => sms.received.length >= 1);

    const [mail] = smtp.received;
    expect(mail!.fromHeader).toEqual({ name: 'Peeters Advies', address: 'desk@actiondesk.test' });
    expect(mail!.from).toBe('desk@actiondesk.test');
    expect(mail!.replyTo).toBe('klanten@peeters.test');
    expect(mail!.subject).toContain('Peeters Advies');
    expect(topOf(mail!)).toBe(
      `<img src="http://localhost:3000${logoUrl}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0;margin:0 0 10px">Peeters Advies`,
    );
    expect(buttonColourOf(mail!)).toBe('#1a5e20');
    expect(linksIn(mail!.html)).toContain(`http://localhost:3000/action/${res.body.code}`);
    // Contacts see the brand, not the organisation's registered name.
    expect(`${mail!.subject}\n${mail!.text}\n${mail!.html}`).not.toContain('Kantoor Peeters BV');

    const [text] = sms.received;
    expect(text!.body).toMatchObject({ to: '+32470111222', from: 'Peeters' });
    expect(String(text!.body.text)).toContain('Peeters Advies');
  });

  it('when an organisation has set no brand, then its messages are from MAIL_FROM, SMS_FROM and in the product’s look', async () => {
    const template = await createTemplate(h, plain, { name: 'Intake' });
    const contact = await createContact(h, plain, {
      Voornaam: 'Jan',
      Email: 'jan@example.test',
      Telefoon: '+32470333444',
    });
    const res = await api(plain)
      .post('/api/v1/sessionrequests')
      .send({
        type: 'qlist',
        customerId: contact,
        questionListIds: [template],
        notificationEmail: { send: true },
        notificationSms: { send: true },
      });
    expect(res.status).toBe(201);
    await h.jobs.drain();
    await smtp.waitFor(1);
    await until(async () => sms.received.length >= 1);
    const [mail] = smtp.received;
    expect(mail!.fromHeader).toEqual({ name: 'ActionDesk', address: 'desk@actiondesk.test' });
    expect(mail!.replyTo).toBe('');
    expect(topOf(mail!)).toBe('Kantoor Zonder Merk');
    expect(buttonColourOf(mail!)).toBe('#0b57d0');
    expect(sms.received[0]!.body.from).toBe('ActionDesk');
  });

  it('when a signer asks for a one-time code, then the code’s e-mail carries the brand too', async () => {
    const signer = signerBrowser(await quicksign(org, 'sien@example.test'));
    const mail = await codeMail(signer);
    expect(mail.fromHeader.name).toBe('Peeters Advies');
    expect(mail.replyTo).toBe('klanten@peeters.test');
    expect(mail.subject).toContain('Peeters Advies');
    expect(topOf(mail)).toContain('>Peeters Advies');
    expect(topOf(mail)).toContain(`src="http://localhost:3000${logoUrl}"`);
  });
});

describe('the brand on the signed document', () => {
  it('when every signer has signed, then the signature page shows the brand’s logo and name, the audit trail the brand beside the organisation, and the copy comes in the brand', async () => {
    const code = await quicksign(org, 'tekenaar@example.test');
    const signer = signerBrowser(code);
    const mail = await codeMail(signer);
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    expect((await signer.post('/sign/verify', [['code', otp]])).status).toBe(303);
    await signer.page();
    const signed = await signer.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Sien Peeters'],
      ['consent', 'yes'],
    ]);
    expect(signed.status).toBe(303);
    await h.jobs.drain();
    await until(async () => smtp.received.some((m) => m.subject.startsWith('Your signed copy')));

    const file = await asBuffer(signer.agent.get(`/action/${code}/signed`));
    expect(file.status).toBe(200);
    const pdf = file.body as Buffer;
    const text = await pdfText(pdf);
    const audit = text.indexOf('Audit trail');
    expect(audit).toBeGreaterThan(0);
    // The signature page: the brand on top, before the signatures.
    expect(text.slice(0, audit)).toMatch(/Peeters Advies\s+Signatures/);
    // The audit trail: the organisation's own name, and the one its contacts see.
    expect(text.slice(audit)).toContain('Organisation: Kantoor Peeters BV');
    expect(text.slice(audit)).toContain('Name shown to contacts: Peeters Advies');
    // The logo is drawn (the original and a typed signature have no image).
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);

    const copy = smtp.received.find((m) => m.subject.startsWith('Your signed copy'))!;
    expect(copy.fromHeader.name).toBe('Peeters Advies');
    expect(copy.replyTo).toBe('klanten@peeters.test');
    expect(topOf(copy)).toContain('>Peeters Advies');
  });
});

describe('the brand on the contact’s pages', () => {
  it('when a contact opens their link, then the header shows the brand’s logo and name, and buttons and links its colour', async () => {
    const code = await quicksign(org, 'pagina@example.test');
    const page = await request(h.server).get(`/action/${code}?lang=en`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      `<header><img class="logo" src="${logoUrl}" alt="" height="48"><p class="org">Peeters Advies</p>`,
    );
    expect(page.text).toContain('<title>Mandate — Peeters Advies</title>');
    expect(page.text).toContain('button.primary,.button.primary{background:#1a5e20;color:#fff}');
    expect(page.text).toContain('a{color:#1a5e20}');
    expect(page.text).not.toContain('Kantoor Peeters BV');
    // The page's policy loads images from this site only: the logo is here.
    expect(page.headers['content-security-policy']).toContain("img-src 'self'");
    const logo = await request(h.server).get(logoUrl);
    expect([logo.status, logo.headers['content-type']]).toEqual([200, 'image/png']);
  });

  it('when the organisation has no brand, then the page shows its name in the product’s look', async () => {
    const page = await request(h.server).get(
      `/action/${await quicksign(plain, 'plain@example.test')}?lang=en`,
    );
    expect(page.text).toContain('<header><p class="org">Kantoor Zonder Merk</p>');
    expect(page.text).not.toContain('class="logo"');
    expect(page.text).not.toContain(':focus-visible{outline-color:');
  });
});

describe('declining, with and without a code', () => {
  it('when the organisation does not require a code, then a signer declines without one', async () => {
    const code = await quicksign(plain, 'weiger@example.test');
    const signer = signerBrowser(code);
    const form = await signer.page('&step=decline');
    expect(form.text).toContain('name="reason"');
    const res = await signer.post('/decline', [['reason', 'The amount is wrong']]);
    expect(res.status).toBe(303);
    expect(await statusOf(plain, code)).toBe('declined');
  });

  it('when the organisation requires a code, then declining is refused in the signer’s language until this browser confirmed one', async () => {
    const strict = await createOrg(h, 'Kantoor Streng');
    await setNotices(h, strict, strict.adminId, 'none');
    const set = await h
      .api()
      .patch('/api/v1/admin/organisation/brand')
      .set('x-api-key', strict.adminKey)
      .send({ requireCodeToDecline: true });
    expect(set.body.requireCodeToDecline).toBe(true);
    const code = await quicksign(strict, 'streng@example.test');
    const signer = signerBrowser(code);

    const page = await signer.page('&step=decline');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="reason"');
    expect(page.text).toContain('To decline, first confirm with a one-time code that it is you');
    const refused = await signer.post('/decline', [['reason', 'Not for me']]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('To decline, first confirm with a one-time code that it is you');
    const dutch = await signer.post('/decline', [['reason', 'Niet voor mij']], 'nl');
    expect(dutch.status).toBe(400);
    expect(dutch.text).toContain('Om te weigeren bevestigt u eerst met een eenmalige code dat u het bent');
    expect(await statusOf(strict, code)).not.toBe('declined');

    const mail = await codeMail(signer);
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    expect((await signer.post('/sign/verify', [['code', otp]])).status).toBe(303);
    const after = await signer.page('&step=decline');
    expect(after.text).toContain('name="reason"');
    const declined = await signer.post('/decline', [['reason', 'Not for me']]);
    expect(declined.status).toBe(303);
    expect(await statusOf(strict, code)).toBe('declined');
  });
});
