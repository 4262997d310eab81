import { sql } from 'drizzle-orm';
import request from 'supertest';
import { asBuffer, pdfsig, samplePdf } from './support/binary';
import { createContact, createOrg, setNotices, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { linksIn, startHttpReceiver, startSmtpServer } from './support/peers';
import { signerBrowser as sharedSignerBrowser } from './support/signer';
import { until } from './support/until';

// The signer's copy of a sealed document (job `signed-copy`) when it does not travel as an attachment:
// a copy over SIGNED_COPY_ATTACH_MAX_SIZE is e-mailed as a link to the signer's own copy, and a signer
// without an e-mail address gets that link by SMS. Over a real SMTP server and a real HTTP receiver as
// the SMS provider; every link is followed.

let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startHttpReceiver>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  sms = await startHttpReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kantoor <desk@kantoor.test>',
    SMS_PROVIDER_URL: sms.url,
    SMS_FROM: 'ActionDesk',
    // Any sealed PDF is larger than this: every copy goes as a link.
    SIGNED_COPY_ATTACH_MAX_SIZE: '1kb',
  });
  org = await createOrg(h, 'Kantoor Kopie');
  // The tests count the contacts' messages: the administrator who sends the action asks for no notices.
  await setNotices(h, org, org.adminId, 'none');
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await sms.close();
});

const key = () => org.adminKey;
const isCopyMail = (m: { subject: string }) => m.subject === 'Your signed copy of “Copy 2026”';
const isCopySms = (r: { body: Record<string, unknown> }) => String(r.body.text).includes('/signed');

const signerBrowser = (code: string) => sharedSignerBrowser(h, code);

/** Asks for a one-time code by `channel`, lets the job send it, reads it from the peer, and confirms it. */
async function confirmCode(signer: ReturnType<typeof signerBrowser>, channel: 'email' | 'sms') {
  const [mails, texts] = [smtp.received.length, sms.received.length];
  expect((await signer.post('/sign/code', [['channel', channel]])).status).toBe(303);
  await h.jobs.drain();
  const message = async () =>
    channel === 'email'
      ? smtp.received.slice(mails).find((m) => /^\d{6} /.test(m.subject))?.text
      : sms.received.slice(texts).map((r) => String(r.body.text))[0];
  await until(async () => (await message()) !== undefined);
  const code = /\b(\d{6})\b/.exec((await message()) ?? '')?.[1] ?? '';
  expect((await signer.post('/sign/verify', [['code', code]])).status).toBe(303);
}

async function sign(signer: ReturnType<typeof signerBrowser>, channel: 'email' | 'sms', name: string) {
  await signer.page();
  await confirmCode(signer, channel);
  await signer.page();
  const signed = await signer.post('/sign', [
    ['mark', 'typed'],
    ['typedName', name],
    ['consent', 'yes'],
  ]);
  expect(signed.status).toBe(303);
}

/** A link the service handed out, followed by a client with no cookie: the code is the credential. */
const follow = (link: string) => asBuffer(request(h.server).get(new URL(link).pathname));

describe('the signed copy, as a link', () => {
  it('when the copy is over the attachment limit and one signer has only a phone number, then the e-mail carries no attachment but a link, the SMS the other signer’s link, and each link downloads the sealed PDF', async () => {
    // Arrange: one signer with an e-mail address, one with only a mobile number, signing in parallel.
    const mailed = await createContact(h, org, { Voornaam: 'Mira', Email: 'mira@example.test' });
    const texted = await createContact(h, org, { Voornaam: 'Pieter', Telefoon: '0470 11 12 22' });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', key())
      .attach('file', await samplePdf('Copy'), 'copy.pdf');
    expect(upload.status).toBe(201);
    const created = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'quicksign',
        customerIds: [mailed, texted],
        signingOrder: 'parallel',
        document: { fileId: upload.body._id, title: 'Copy 2026' },
        language: 'en',
        expiresAt: new Date(h.clock.now().getTime() + 86_400_000).toISOString(),
      });
    expect(created.status).toBe(201);
    const [one, two] = created.body.signers as { _id: string; url: string; customerId: string }[];
    expect([one?.customerId, two?.customerId]).toEqual([mailed, texted]);
    const linkOf = (signer: { url: string } | undefined) => `${signer?.url}/signed`;
    const codeOf = (signer: { url: string } | undefined) =>
      new URL(signer?.url ?? '').pathname.split('/')[2]!;

    // Act, and the rule before completion: a signer's copy is there only once everyone has signed.
    await sign(signerBrowser(codeOf(one)), 'email', 'Mira Maes');
    await h.jobs.drain();
    expect(smtp.received.filter(isCopyMail)).toEqual([]);
    const early = await follow(linkOf(one));
    expect(early.status).toBe(404);
    expect(early.headers['content-type']).not.toBe('application/pdf');
    await sign(signerBrowser(codeOf(two)), 'sms', 'Pieter Peeters');
    await h.jobs.drain();
    await until(async () => smtp.received.some(isCopyMail) && sms.received.some(isCopySms));

    // The sealed document, as the API serves it: the copy each signer gets.
    const status = await h.api().get(`/api/v1/sessionrequests/${created.body._id}`).set('x-api-key', key());
    expect(status.body.status).toBe('completed');
    const sessions = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${created.body._id}`)
      .set('x-api-key', key());
    const document = sessions.body.sessions[0].documents[0] as { fileUrl: string; fileName: string };
    expect(document.fileName).toBe('Copy 2026 (signed).pdf');
    const sealed = (await asBuffer(h.api().get(document.fileUrl).set('x-api-key', key()))).body as Buffer;
    expect(sealed.length).toBeGreaterThan(1024);

    // The e-mail: no attachment, the text saying why, and one button to this signer's own copy.
    const copies = smtp.received.filter(isCopyMail);
    expect(copies).toHaveLength(1);
    const mail = copies[0]!;
    expect(mail.to).toEqual(['mira@example.test']);
    expect(mail.attachments).toEqual([]);
    expect(mail.text).toContain('“Copy 2026” has been signed by everyone.');
    expect(mail.text).toContain(
      'The file is too large to send with this message: download it with the button below.',
    );
    expect(mail.text).not.toContain('attached');
    expect(mail.text).toContain(`Download the signed document:\n${linkOf(one)}`);
    expect(linksIn(mail.html)).toEqual([linkOf(one)]);

    // The SMS: to the only signer without an e-mail address, in E.164, with their own link.
    const texts = sms.received.filter(isCopySms);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toEqual({
      to: '+32470111222',
      from: 'ActionDesk',
      text: `“Copy 2026” has been signed by everyone. Your copy from Kantoor Kopie: ${linkOf(two)}`,
    });
    expect(linkOf(two)).not.toBe(linkOf(one));

    // Each link downloads the sealed PDF itself, as a file named after the document.
    for (const link of [linkOf(one), linkOf(two)]) {
      const copy = await follow(link);
      expect(copy.status).toBe(200);
      expect(copy.headers['content-type']).toBe('application/pdf');
      expect(copy.headers['content-disposition']).toBe(
        `attachment; filename="signed.pdf"; filename*=UTF-8''Copy%202026%20(signed).pdf`,
      );
      expect(copy.headers['cache-control']).toBe('private, no-store');
      const bytes = copy.body as Buffer;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(Buffer.compare(bytes, sealed)).toBe(0);
    }
    expect(await pdfsig(sealed)).toContain('Signature Validation: Signature is Valid.');

    // Each signer's copy was sent once, by its own job.
    const jobs = await tenantRows<{ signer: string; status: string; sends: number }>(
      h,
      org.organisationId,
      sql`SELECT payload->>'signerId' AS signer, status, sends FROM jobs
           WHERE subject_id = ${created.body._id} AND kind = 'signed-copy' ORDER BY created_at, id`,
    );
    expect(new Set(jobs.map((j) => j.signer))).toEqual(new Set([one?._id, two?._id]));
    expect(jobs.map((j) => [j.status, j.sends])).toEqual([
      ['done', 1],
      ['done', 1],
    ]);

    // The link does not lapse with the action's expiry date: a completed action's copy stays.
    h.clock.advance(30 * 86_400_000);
    expect((await follow(linkOf(two))).status).toBe(200);
    // Once the action is removed (with a signer's contact), neither link answers.
    const erased = await h.api().delete(`/api/v1/customers/${texted}?cascade=true`).set('x-api-key', key());
    expect(erased.status).toBe(204);
    for (const link of [linkOf(one), linkOf(two)]) expect((await follow(link)).status).toBe(404);
  });
});
