import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { DocumentPreviews, PAGE_IMAGE_WIDTH } from '../src/modules/files';
import { queryRows, uuidArray } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { eventTypes } from '../src/platform/events/event-types';
import { localDiskStorage } from '../src/platform/files/storage';
import { systemContext } from '../src/platform/kernel/context';
import { generateSealKey } from '../src/platform/signing/certificate';
import { asBuffer, pdfsig, pdfText, samplePdf } from './support/binary';
import { createContact, createOrg, setNotices, type TestOrg, untilSettled } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { linksIn, startSmtpServer } from './support/peers';
import { createReportTemplate, submitAsContact, submittedSession } from './support/submissions';
import { until } from './support/until';

let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kantoor <desk@kantoor.test>',
    TIME_ZONE: 'Europe/Brussels',
  });
  org = await createOrg(h, 'Kantoor Łukasz');
  // The tests count the contacts' mail: the administrator who sends the actions asks for no notices.
  await setNotices(h, org, org.adminId, 'none');
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const api = () => h.api();
const key = () => org.adminKey;

async function uploadPdf(text: string, pages = 2) {
  const bytes = await samplePdf(text, pages);
  const res = await api().post('/api/v1/files').set('x-api-key', key()).attach('file', bytes, `${text}.pdf`);
  expect(res.status).toBe(201);
  return { id: res.body._id as string, bytes };
}

async function quicksign(opts: { contact?: Record<string, string>; invite?: boolean; title?: string } = {}) {
  const contact = await createContact(
    h,
    org,
    opts.contact ?? { Voornaam: 'Łukasz', Achternaam: 'Żółć', Email: 'lukasz@example.test' },
  );
  const doc = await uploadPdf(opts.title ?? 'Mandate');
  const res = await api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', key())
    .send({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: doc.id, title: opts.title ?? 'Mandate 2026' },
      language: 'en',
      ...(opts.invite === false ? {} : { notificationEmail: { send: true } }),
    });
  expect(res.status).toBe(201);
  return { id: res.body._id as string, code: res.body.code as string, contact, doc, body: res.body };
}

/** A signer's browser: its cookies, the page's CSRF token, and form posts as the page makes them. */
function signerBrowser(code: string) {
  const agent = request.agent(h.server);
  let csrf = '';
  const page = async (query = '') => {
    const res = await agent.get(`/action/${code}?lang=en${query}`).set('User-Agent', 'SignerPhone/1.0');
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
      .set('User-Agent', 'SignerPhone/1.0')
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return { agent, page, post };
}

/** Asks for a code by e-mail, runs the job that sends it, and reads it from the real SMTP server. */
async function codeByMail(browser: ReturnType<typeof signerBrowser>): Promise<string> {
  const before = smtp.received.length;
  const res = await browser.post('/sign/code', [['channel', 'email']]);
  expect(res.status).toBe(303);
  await h.jobs.drain();
  // The drain may deliver other mail of the action too (its invitation): the code's mail is the one
  // whose subject begins with a code, in every language.
  const isCodeMail = (m: { subject: string }) => /^\d{6} /.test(m.subject);
  await until(async () => smtp.received.slice(before).some(isCodeMail));
  const mail = smtp.received.slice(before).find(isCodeMail)!;
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code).toBeDefined();
  return code!;
}

/** The action's file-pages job (its state and file) and that file's stored pages. */
async function drawnPagesOf(actionId: string) {
  return inTenant(h.database, systemContext(org.organisationId), async (tx) => {
    const jobs = await queryRows<{ status: string; file_id: string }>(
      tx,
      sql`SELECT status, payload->>'fileId' AS file_id FROM jobs WHERE subject_id = ${actionId} AND kind = 'file-pages'`,
    );
    const pages = await queryRows<{
      page: number;
      image_width: number | null;
      text: string;
      png: string | null;
    }>(
      tx,
      sql`SELECT page, image_width, text, substr(image, 2, 3)::text AS png FROM file_pages
           WHERE file_id = ANY(${uuidArray(jobs.map((j) => j.file_id))}) ORDER BY page`,
    );
    return { jobs, pages };
  });
}

const eventTypesOf = async (actionId: string) => {
  await untilSettled(h, org.organisationId);
  const res = await api().get('/api/v1/events?limit=1000').set('x-api-key', key());
  return (res.body.events as { type: string; data: { sessionRequest?: { _id: string } } }[])
    .filter((e) => e.data.sessionRequest?._id === actionId)
    .map((e) => e.type);
};

describe('quicksign: the signer’s way through', () => {
  it('when the signer reads, confirms a mailed code and signs, then the action completes with a sealed PDF that pdfsig verifies, with the original pages, a signature page and an audit trail', async () => {
    const action = await quicksign();
    expect(action.body.signatureLevel).toBe('simple');
    expect(action.body.signers).toEqual([
      expect.objectContaining({
        customerId: action.contact,
        position: 0,
        status: 'pending',
        url: action.body.url,
      }),
    ]);
    await h.jobs.drain(); // the invitation
    // The invitation names the document, with one button to the signer's link and the link in its text part.
    const invitation = smtp.received[0]!;
    expect(invitation.subject).toBe('Kantoor Łukasz asks you to sign “Mandate 2026”');
    expect(invitation.contentType).toBe('multipart/alternative');
    expect(invitation.text).toContain('(Kantoor Łukasz) asks you to sign “Mandate 2026”.');
    expect(invitation.text).toContain(`Open the document:\n${action.body.url}`);
    expect(linksIn(invitation.html)).toEqual([action.body.url]);
    expect(invitation.html).toContain('>Open the document</a>');
    const browser = signerBrowser(action.code);

    const first = await browser.page();
    expect(first.status).toBe(200);
    expect(first.text).toContain('<h1>Mandate 2026</h1>');
    expect(first.text).toContain('The document (2 pages)');
    expect(first.text).toContain('alt="Page 2 of 2"');
    expect(first.text).toContain('Mandate - page 2'); // the page's text, for screen readers
    expect(first.text).toContain('By e-mail to l•••@example.test');
    const image = await asBuffer(browser.agent.get(`/action/${action.code}/documents/0/pages/1`));
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((image.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    const original = await asBuffer(browser.agent.get(`/action/${action.code}/documents/0`));
    expect(Buffer.compare(original.body as Buffer, action.doc.bytes)).toBe(0);

    const code = await codeByMail(browser);
    const mail = smtp.received.findLast((m) => m.subject.startsWith(`${code} `))!;
    expect(mail.to).toEqual(['lukasz@example.test']);
    expect(mail.subject).toContain(code);
    expect(mail.text).toContain('valid for 10 minutes');
    // The code's e-mail: in the layout, the code large in the HTML and on its own in the text; no button.
    expect(mail.contentType).toBe('multipart/alternative');
    expect(mail.text).toContain(`Use this code to sign “Mandate 2026” from Kantoor Łukasz:\n\n${code}\n\n`);
    expect(mail.html).toMatch(new RegExp(`<p style="[^"]*font-size:32px[^"]*">${code}</p>`));
    expect(mail.html).toMatch(/<td style="[^"]*font-weight:700[^"]*">Kantoor Łukasz<\/td>/);
    expect(linksIn(mail.html)).toEqual([]);
    const waiting = await browser.page();
    expect(waiting.text).toContain('We sent a code by e-mail (l•••@example.test)');
    expect(waiting.text).toContain('autocomplete="one-time-code"');

    const wrong = await browser.post('/sign/verify', [['code', code === '000000' ? '111111' : '000000']]);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That code is not right. 4 tries left.');
    const right = await browser.post('/sign/verify', [['code', `${code.slice(0, 3)} ${code.slice(3)}`]]);
    expect(right.status).toBe(303);
    expect(String(right.headers['set-cookie'])).toContain(`adk_signer=`);
    expect(String(right.headers['set-cookie'])).toContain(`Path=/action/${action.code}`);

    const signPage = await browser.page();
    expect(signPage.text).toContain('Sign “Mandate 2026”');
    expect(signPage.text).toContain('I have read “Mandate 2026” and sign it electronically.');
    expect(signPage.text).toContain('value="Łukasz Żółć"');

    const noConsent = await browser.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Łukasz Żółć'],
    ]);
    expect(noConsent.status).toBe(400);
    expect(noConsent.text).toContain('Tick the agreement to sign.');

    h.clock.advance(60_000);
    const signed = await browser.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Łukasz Żółć'],
      ['consent', 'yes'],
    ]);
    expect(signed.status).toBe(303);
    const after = await browser.page();
    expect(after.text).toContain('You signed on');
    expect((await browser.agent.get(`/action/${action.code}/signed`)).status).toBe(404); // not sealed yet
    expect(after.text).toContain('Everyone has signed. The signed document is being prepared:');

    // Signed, not yet completed: the document is made by a job.
    const pending = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(pending.body.status).toBe('opened');
    expect(pending.body.signers[0]).toEqual(
      expect.objectContaining({ status: 'signed', codeChannel: 'email' }),
    );
    await h.jobs.drain();

    const done = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(done.body.status).toBe('completed');
    const sessions = await api()
      .get(`/api/v1/sessions?sessionRequestId=${action.id}`)
      .set('x-api-key', key());
    const documents = sessions.body.sessions[0].documents as { fileUrl: string; fileName: string }[];
    expect(documents).toHaveLength(1);
    expect(documents[0]!.fileName).toBe('Mandate 2026 (signed).pdf');
    const file = await asBuffer(api().get(documents[0]!.fileUrl.replace(/^/, '')).set('x-api-key', key()));
    expect(file.status).toBe(200);
    const pdf = file.body as Buffer;
    // The signer gets their copy by e-mail, attached, named after the document.
    const mailed = smtp.received.find((m) => m.subject === 'Your signed copy of “Mandate 2026”')!;
    expect(mailed.to).toEqual(['lukasz@example.test']);
    expect(mailed.text).toContain('“Mandate 2026” has been signed by everyone.');
    expect(mailed.attachments).toEqual([
      expect.objectContaining({ filename: 'Mandate 2026 (signed).pdf', contentType: 'application/pdf' }),
    ]);
    expect(Buffer.compare(mailed.attachments[0]!.content, pdf)).toBe(0);

    const report = await pdfsig(pdf);
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    const text = await pdfText(pdf);
    expect(text).toContain('Mandate - page 1');
    expect(text).toContain('Mandate - page 2');
    expect(text).toContain('Signed by Łukasz Żółć');
    expect(text).toContain('Audit trail');
    expect(text).toContain('lukasz@example.test');
    expect(text).toContain('SignerPhone/1.0');
    expect(text).toContain(createHash('sha256').update(action.doc.bytes).digest('hex'));
    for (const step of ['Opened', 'Code sent', 'Wrong code', 'Code verified', 'Signed'])
      expect(text).toContain(step);
    expect(text).toContain('Europe/Brussels');
    expect(text).toContain('2026-03-02 09:01:00 UTC');
    expect(text).toContain('2026-03-02 10:01:00 Europe/Brussels');
    expect(text).toContain('PAdES baseline B-B (ETSI EN 319 142-1): signatures without a trusted timestamp');

    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('/Type /Page');
    tampered[at + 2] = tampered[at + 2]! ^ 0x01;
    expect(await pdfsig(tampered)).toContain('Digest Mismatch');

    // The service's own verification says the same: of the stored file, and of a file sent to it.
    const fileId = (sessions.body.sessions[0].documents[0] as { fileId: string }).fileId;
    const verification = await api().get(`/api/v1/files/${fileId}/verification`).set('x-api-key', key());
    expect(verification.status).toBe(200);
    expect(verification.body).toMatchObject({
      signed: true,
      valid: true,
      modifiedAfterLastSignature: false,
      // No TSA_URL here: a PAdES baseline signature without trusted time.
      pades: { level: 'B-B', validationData: { embedded: false } },
    });
    expect(verification.body.signatures).toEqual([
      expect.objectContaining({
        name: 'Lukasz Zolc',
        intact: true,
        coversWholeFile: true,
        subFilter: 'ETSI.CAdES.detached',
        signedAt: '2026-03-02T09:01:00.000Z',
        problems: [],
        certificate: expect.objectContaining({ selfSigned: true, thisService: true }),
      }),
    ]);
    expect(verification.body.signatures[0].reason).toContain('Signed by Lukasz Zolc');
    const sent = await api()
      .post('/api/v1/files/verify')
      .set('x-api-key', key())
      .attach('file', tampered, 'tampered.pdf');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ signed: true, valid: false });
    expect(sent.body.signatures[0]).toMatchObject({
      intact: false,
      problems: ['the signed bytes were changed (digest mismatch)'],
    });
    const unsigned = await api()
      .post('/api/v1/files/verify')
      .set('x-api-key', key())
      .attach('file', action.doc.bytes, 'original.pdf');
    expect(unsigned.body).toEqual({
      signed: false,
      valid: false,
      livemode: true,
      modifiedAfterLastSignature: false,
      signatures: [],
      pades: {
        level: null,
        validationData: { embedded: false, certificates: 0, crls: 0, ocspResponses: 0 },
      },
    });
    const appended = Buffer.concat([pdf, Buffer.from('\n1 0 obj (added later) endobj\n')]);
    const later = await api()
      .post('/api/v1/files/verify')
      .set('x-api-key', key())
      .attach('file', appended, 'later.pdf');
    expect(later.body).toMatchObject({ signed: true, valid: false, modifiedAfterLastSignature: true });

    const types = await eventTypesOf(action.id);
    expect(types.indexOf('signature.signed')).toBeGreaterThan(-1);
    expect(types.indexOf('sessionrequest.completed')).toBeGreaterThan(types.indexOf('signature.signed'));
    const completedPage = await browser.page();
    expect(completedPage.text).toContain('The document is signed by everyone and sealed.');
    // The signer keeps a copy: the same sealed file, from their own link.
    expect(completedPage.text).toContain(`href="/action/${action.code}/signed"`);
    const copy = await asBuffer(browser.agent.get(`/action/${action.code}/signed`));
    expect(copy.status).toBe(200);
    expect(Buffer.compare(copy.body as Buffer, pdf)).toBe(0);
    const stranger = await asBuffer(request(h.server).get(`/action/${'x'.repeat(20)}/signed`));
    expect(stranger.status).toBe(404);
  });
});

describe('quicksign: the document’s pages, drawn ahead', () => {
  it('when an action with a document is created, then a job draws and stores every page before the signer opens the link, and another instance shows the stored drawing without drawing again', async () => {
    const action = await quicksign({ invite: false, title: 'Pages ahead' });
    expect(await drawnPagesOf(action.id)).toEqual({
      jobs: [{ status: 'pending', file_id: action.doc.id }],
      pages: [],
    });
    await h.jobs.drain();
    const drawn = await drawnPagesOf(action.id);
    expect(drawn.jobs).toEqual([{ status: 'done', file_id: action.doc.id }]);
    expect(drawn.pages).toEqual([
      {
        page: 1,
        image_width: PAGE_IMAGE_WIDTH,
        text: expect.stringContaining('Pages ahead - page 1'),
        png: '\\x504e47',
      },
      {
        page: 2,
        image_width: PAGE_IMAGE_WIDTH,
        text: expect.stringContaining('Pages ahead - page 2'),
        png: '\\x504e47',
      },
    ]);

    // Another instance (nothing in its memory) reads what is stored: a marker put in place of page 1's
    // drawing is what it answers, so it did not draw the page again.
    const ctx = systemContext(org.organisationId);
    const marker = await inTenant(h.database, ctx, async (tx) => {
      const [row] = await queryRows<{ image: Buffer }>(
        tx,
        sql`UPDATE file_pages SET image = (SELECT image FROM file_pages WHERE file_id = ${action.doc.id} AND page = 2)
             WHERE file_id = ${action.doc.id} AND page = 1 RETURNING image`,
      );
      return row!.image;
    });
    const other = new DocumentPreviews(
      h.database,
      localDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'))),
    );
    const file = {
      storageKey: `${org.organisationId}/${action.doc.id}`,
      sha256: createHash('sha256').update(action.doc.bytes).digest('hex'),
    };
    expect(Buffer.from((await other.image(file, 1))!)).toEqual(Buffer.from(marker));
    expect((await other.factsOf(file)).pages.map((p) => p.text)).toEqual([
      expect.stringContaining('Pages ahead - page 1'),
      expect.stringContaining('Pages ahead - page 2'),
    ]);

    // The signer's page and its images come from the stored pages too.
    const browser = signerBrowser(action.code);
    const page = await browser.page();
    expect(page.text).toContain('The document (2 pages)');
    expect(page.text).toContain('Pages ahead - page 2');
    const image = await asBuffer(browser.agent.get(`/action/${action.code}/documents/0/pages/2`));
    expect(image.status).toBe(200);
    expect(Buffer.from(image.body as Buffer)).toEqual(Buffer.from(marker));
  });

  it('when the file of a drawn document is deleted (with its action), then its stored pages go with it', async () => {
    const action = await quicksign({ invite: false, title: 'Pages gone' });
    await h.jobs.drain();
    expect((await drawnPagesOf(action.id)).pages).toHaveLength(2);
    const gone = await api().delete(`/api/v1/files/${action.doc.id}?cascade=true`).set('x-api-key', key());
    expect(gone.status).toBe(204);
    expect((await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key())).status).toBe(
      404,
    );
    const [left] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM file_pages WHERE file_id = ${action.doc.id}`,
      ),
    );
    expect(left).toEqual({ n: 0 });
  });
});

describe('quicksign: viewers of one action', () => {
  const signerRow = (actionId: string) =>
    inTenant(h.database, systemContext(org.organisationId), async (tx) => {
      const [row] = await queryRows<{ opened_at: string | null; opened: number }>(
        tx,
        sql`SELECT opened_at, (SELECT count(*)::int FROM jsonb_array_elements(trail) e WHERE e->>'step' = 'opened') AS opened
              FROM signers WHERE session_request_id = ${actionId}`,
      );
      return row!;
    });

  it('when a signer of an opened action has not viewed it yet, then their first view is recorded once, and later views record nothing', async () => {
    const q = await quicksign({ invite: false });
    const browser = signerBrowser(q.code);
    expect((await browser.page()).status).toBe(200);
    expect(await signerRow(q.id)).toEqual({ opened_at: expect.anything(), opened: 1 });
    // The action is opened; its signer is made new again (as a second signer of an opened action is).
    await h.database.ownerTransaction((tx) =>
      tx.execute(sql`UPDATE signers SET opened_at = NULL WHERE session_request_id = ${q.id}`),
    );
    const seen = await browser.page();
    expect(seen.text).toContain('Mandate 2026');
    expect(await signerRow(q.id)).toEqual({ opened_at: expect.anything(), opened: 2 });
    await browser.page();
    expect((await browser.agent.get(`/action/${q.code}/documents/0/pages/1`)).status).toBe(200);
    expect(await signerRow(q.id)).toEqual({ opened_at: expect.anything(), opened: 2 });
  });

  // Registered only on the server run of the suite (CI runs both): the embedded database has one
  // connection, so no two transactions are ever open together there.
  if (process.env.DATABASE_URL)
    it('when another viewer holds the action, then the signing page and its page images answer without waiting for it', async () => {
      const q = await quicksign({ invite: false });
      const browser = signerBrowser(q.code);
      await browser.page();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = () => {};
      const inside = new Promise<void>((resolve) => {
        holding = resolve;
      });
      // A viewer's transaction in progress: it holds the action's row with a share lock.
      const viewer = inTenant(h.database, systemContext(org.organisationId), async (tx) => {
        await tx.execute(sql`SELECT id FROM session_requests WHERE id = ${q.id} FOR SHARE`);
        holding();
        await held;
      });
      await inside;
      try {
        const page = await browser.page();
        expect(page.status).toBe(200);
        expect(page.text).toContain('Mandate 2026');
        const image = await browser.agent.get(`/action/${q.code}/documents/0/pages/1`);
        expect(image.status).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
      } finally {
        release();
        await viewer;
      }
    });
});

describe('quicksign: one-time codes', () => {
  it('when five wrong codes are typed, then the code locks (even the right one is refused) until a new code is asked for, which works', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    const code = await codeByMail(browser);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 1; i <= 4; i++) {
      const res = await browser.post('/sign/verify', [['code', wrong]]);
      expect(res.text).toContain(`${5 - i} ${5 - i === 1 ? 'try' : 'tries'} left`);
    }
    const fifth = await browser.post('/sign/verify', [['code', wrong]]);
    expect(fifth.status).toBe(400);
    expect(fifth.text).toContain('The code is locked after 5 wrong tries. Ask for a new code.');
    const rightButLocked = await browser.post('/sign/verify', [['code', code]]);
    expect(rightButLocked.status).toBe(400);
    expect(rightButLocked.text).toContain('locked');
    expect((await browser.page()).text).toContain('Send a new code');

    const fresh = await codeByMail(browser);
    const ok = await browser.post('/sign/verify', [['code', fresh]]);
    expect(ok.status).toBe(303);
    expect((await browser.page()).text).toContain('You are confirmed.');
  });

  it('when the code is typed after ten minutes, then it is refused as expired; an old code no longer works once a new one is sent', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    const code = await codeByMail(browser);
    h.clock.advance(10 * 60_000 + 1);
    const late = await browser.post('/sign/verify', [['code', code]]);
    expect(late.status).toBe(400);
    expect(late.text).toContain('The code has expired. Ask for a new code.');

    const fresh = await codeByMail(browser);
    if (fresh !== code) {
      const old = await browser.post('/sign/verify', [['code', code]]);
      expect(old.status).toBe(400);
    }
    expect((await browser.post('/sign/verify', [['code', fresh]])).status).toBe(303);
  });

  it('when the code was confirmed in one browser, then another browser with the same link cannot sign', async () => {
    const action = await quicksign({ invite: false });
    const mine = signerBrowser(action.code);
    await mine.page();
    expect((await mine.post('/sign/verify', [['code', await codeByMail(mine)]])).status).toBe(303);
    const other = signerBrowser(action.code);
    await other.page();
    const res = await other.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Someone'],
      ['consent', 'yes'],
    ]);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Confirm it is you with a code first.');
    const status = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(status.body.signers[0].status).toBe('pending');
  });

  it('when more than five codes are asked for within an hour, then the sixth is refused and no message goes out', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    for (let i = 0; i < 5; i++) await codeByMail(browser);
    const sixth = await browser.post('/sign/code', [['channel', 'email']]);
    expect(sixth.status).toBe(400);
    expect(sixth.text).toContain('You asked for 5 codes in the last hour already.');
    await h.jobs.drain();
    expect(smtp.received).toHaveLength(5);
  });
});

describe('quicksign: withdrawal, declining and what is refused', () => {
  it('when the signer reads an English action in French, then the code comes in French, and each step answers on its message', async () => {
    const action = await quicksign();
    const browser = signerBrowser(action.code);
    const first = await browser.page();
    expect(first.text).toContain(`action="/action/${action.code}/sign/code?lang=en#result"`);
    const before = smtp.received.length;
    const sent = await browser.post('/sign/code', [['channel', 'email']], 'fr');
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`/action/${action.code}?lang=fr#result`);
    await h.jobs.drain();
    await until(async () => smtp.received.slice(before).some((m) => /^\d{6} /.test(m.subject)));
    const mail = smtp.received.slice(before).find((m) => /^\d{6} /.test(m.subject))!;
    expect(mail.subject).toMatch(/^\d{6} est votre code de signature chez Kantoor Łukasz$/);
    expect(mail.text).toContain('Utilisez ce code pour signer « Mandate 2026 »');
    // The page it lands on has the message that answers the post, focusable, just above the code field.
    const page = await browser.page();
    expect(page.text).toMatch(
      /<p class="notice" role="status" id="result" tabindex="-1">We sent a code by e-mail \(l•••@example.test\)[^<]*<\/p>\s*<form method="post" action="\/action\/[^"]+\/sign\/verify\?lang=en#result">/,
    );
    const wrong = await browser.post('/sign/verify', [['code', '12345']]);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(
      /<div class="summary" role="alert" id="result" tabindex="-1"><p class="error" id="problems">/,
    );
  });

  it('when the action is withdrawn while the signer is on the page, then signing answers 410 and nothing is signed', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    expect((await browser.post('/sign/verify', [['code', await codeByMail(browser)]])).status).toBe(303);
    const withdrawn = await api()
      .post(`/api/v1/sessionrequests/${action.id}/deactivate`)
      .set('x-api-key', key());
    expect(withdrawn.status).toBe(200);
    const res = await browser.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Łukasz Żółć'],
      ['consent', 'yes'],
    ]);
    expect(res.status).toBe(410);
    const after = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(after.body.status).toBe('deactivated');
    expect(after.body.signers[0].status).toBe('pending');
    expect(await eventTypesOf(action.id)).not.toContain('signature.signed');
  });

  it('when the signer declines with a reason without asking for a code, then the action is declined with the reason, in its history and events, the trail has the browser, and the link says so', async () => {
    const action = await quicksign();
    const browser = signerBrowser(action.code);
    await browser.page();
    // The link is the signer's own: declining needs no code (the trail records that none was confirmed).
    const form = await browser.page('&step=decline');
    expect(form.text).toContain('Decline to sign');
    expect(form.text).toContain('name="reason"');
    expect(form.text).toContain(`action="/action/${action.code}/decline?lang=en#result"`);
    const empty = await browser.post('/decline', [['reason', '  ']]);
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Give a reason.');
    expect(empty.text).toMatch(/<div class="summary" role="alert" id="result" tabindex="-1">/);
    expect(
      (await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key())).body.status,
    ).toBe('opened');
    const res = await browser.post('/decline', [['reason', 'The amount is wrong']]);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/action/${action.code}?lang=en#result`);
    const [trail] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ entry: Record<string, unknown> }>(
        tx,
        sql`SELECT trail->-1 AS entry FROM signers WHERE session_request_id = ${action.id}`,
      ),
    );
    expect(trail!.entry).toEqual(
      expect.objectContaining({ step: 'declined', codeConfirmed: false, ip: expect.any(String) }),
    );
    const after = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(after.body.status).toBe('declined');
    expect(after.body.closedAt).not.toBeNull();
    expect(after.body.signers[0]).toEqual(
      expect.objectContaining({ status: 'declined', declineReason: 'The amount is wrong' }),
    );
    expect(after.body.history.at(-1)).toEqual(
      expect.objectContaining({ from: 'opened', to: 'declined', actor: 'contact' }),
    );
    const types = await eventTypesOf(action.id);
    expect(types.slice(-2)).toEqual(['signature.declined', 'sessionrequest.declined']);
    const events = await api().get('/api/v1/events?type=signature.declined').set('x-api-key', key());
    const mine = events.body.events.find(
      (e: { data: { sessionRequest: { _id: string } } }) => e.data.sessionRequest._id === action.id,
    );
    expect(mine.data.signer).toEqual(
      expect.objectContaining({ status: 'declined', declineReason: 'The amount is wrong' }),
    );
    // The invitation's reminders are cancelled with the action.
    const page = await browser.page();
    expect(page.status).toBe(410);
    expect(page.text).toContain('Signing was declined.');
  });

  it('when a qualified signature is asked and no trust service is configured, then 400 names signatureLevel and nothing is created', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Eva', Email: 'eva@example.test' });
    const doc = await uploadPdf('Qualified');
    const before = await api().get('/api/v1/sessionrequests?limit=1').set('x-api-key', key());
    const res = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: doc.id, title: 'Qualified' },
        signatureLevel: 'qualified',
      });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'signatureLevel', message: expect.stringContaining('no') }),
    ]);
    expect(res.body.details[0].message).toContain('QUALIFIED_SIGNING_PROVIDER');
    const after = await api().get('/api/v1/sessionrequests?limit=1').set('x-api-key', key());
    expect(after.body.total).toBe(before.body.total);
  });

  it('when the document is not a PDF that can be signed, then the action is refused naming document.fileId', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Eva', Email: 'eva@example.test' });
    const broken = await api()
      .post('/api/v1/files')
      .set('x-api-key', key())
      .attach('file', Buffer.from('%PDF-1.4\nnot really a pdf\n%%EOF\n'), 'broken.pdf');
    expect(broken.status).toBe(201);
    const res = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: broken.body._id, title: 'Broken' },
      });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'document.fileId', message: expect.stringContaining('can be read') }),
    ]);
  });
});

describe('multisigning: a questionnaire, then several signers in order', () => {
  it('when two signers sign in sequential order, then the second waits for the first, each is invited in turn, and the report with the answers carries two valid signatures', async () => {
    const template = await createReportTemplate(h, org);
    const first = await createContact(h, org, {
      Voornaam: 'Łukasz',
      Achternaam: 'Żółć',
      Email: 'lukasz.z@example.test',
    });
    const second = await createContact(h, org, {
      Voornaam: 'Дмитрий',
      Achternaam: 'Иванов',
      Email: 'dmitri@example.test',
    });
    const res = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'multisigning',
        customerIds: [first, second],
        signingOrder: 'sequential',
        questionListIds: [template],
        notificationEmail: { send: true },
      });
    expect(res.status).toBe(201);
    expect(res.body.customerId).toBe(first);
    expect(res.body.signingOrder).toBe('sequential');
    const [one, two] = res.body.signers as { _id: string; url: string; customerId: string }[];
    expect([one!.customerId, two!.customerId]).toEqual([first, second]);
    expect(one!.url).toBe(res.body.url);
    expect(two!.url).not.toBe(res.body.url);
    const codeOf = (url: string) => url.split('/action/')[1]!;
    // Only the first signer is invited: they answer the questionnaire.
    expect(res.body.notifications).toEqual([
      expect.objectContaining({ purpose: 'invitation', signerId: one!._id }),
    ]);
    await h.jobs.drain();
    expect(smtp.received.map((m) => m.to[0])).toEqual(['lukasz.z@example.test']);
    expect(smtp.received[0]!.text).toMatch(/ vraagt u «Intake [^»]+» in te vullen en te ondertekenen\./);
    expect(smtp.received[0]!.text).toContain(res.body.url);

    const later = signerBrowser(codeOf(two!.url));
    const early = await later.page();
    expect(early.text).toContain('Łukasz Żółć vult eerst de vragenlijst in.');
    const tooSoon = await later.post('/sign/code', [['channel', 'email']]);
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.text).toContain('Het is nog niet uw beurt om te ondertekenen.');
    // The second signer cannot answer the questionnaire either.
    const answer = await later.post('', [
      ['step', '0'],
      ['nav', 'next'],
      ['q.q', 'Intruder'],
    ]);
    expect(answer.status).toBe(303);

    await submitAsContact(h, res.body.code, 'Ελένη Παπαδοπούλου');
    const afterAnswers = await api().get(`/api/v1/sessionrequests/${res.body._id}`).set('x-api-key', key());
    expect(afterAnswers.body.status).toBe('opened'); // signing comes next
    // The report is what is signed: its pages are drawn ahead as well.
    await h.jobs.drain();
    const reportPages = await drawnPagesOf(res.body._id);
    expect(reportPages.jobs).toEqual([{ status: 'done', file_id: expect.any(String) }]);
    expect(reportPages.pages.length).toBeGreaterThan(0);
    for (const page of reportPages.pages)
      expect(page).toMatchObject({ image_width: PAGE_IMAGE_WIDTH, png: '\\x504e47' });
    const waiting = await later.page();
    expect(waiting.text).toContain('Łukasz Żółć');
    expect(waiting.text).toContain('moet eerst ondertekenen');
    expect((await later.post('/sign/code', [['channel', 'email']])).status).toBe(400);

    const a = signerBrowser(res.body.code);
    const aPage = await a.page();
    expect(aPage.text).toContain('Stuur mij een code');
    const aCode = await codeByMail(a);
    // The code's message names what is signed: the questionnaire.
    expect(smtp.received.at(-1)!.text).toMatch(/«Intake [0-9a-f]{8}» van Kantoor Łukasz/);
    expect((await a.post('/sign/verify', [['code', aCode]])).status).toBe(303);
    expect(
      (
        await a.post('/sign', [
          ['mark', 'typed'],
          ['typedName', 'Łukasz Żółć'],
          ['consent', 'yes'],
        ])
      ).status,
    ).toBe(303);
    // The first signer is not told the document is complete: the other signer has not signed yet.
    const firstDone = await a.page();
    expect(firstDone.text).toContain(
      'Het document is pas volledig als de andere ondertekenaar ook heeft ondertekend.',
    );
    expect(firstDone.text).not.toContain('Iedereen heeft ondertekend');
    expect(firstDone.text).not.toContain('http-equiv="refresh"');
    await h.jobs.drain();
    // Now the second signer is invited, on their own link.
    const invitation = smtp.received[smtp.received.length - 1]!;
    expect(invitation.to).toEqual(['dmitri@example.test']);
    expect(invitation.text).toContain(two!.url);
    const pending = await api().get(`/api/v1/sessionrequests/${res.body._id}`).set('x-api-key', key());
    expect(pending.body.status).toBe('opened');

    expect((await later.page()).text).toContain('Stuur mij een code');
    expect((await later.post('/sign/verify', [['code', await codeByMail(later)]])).status).toBe(303);
    expect(
      (
        await later.post('/sign', [
          ['mark', 'typed'],
          ['typedName', 'Дмитрий Иванов'],
          ['consent', 'yes'],
        ])
      ).status,
    ).toBe(303);
    await h.jobs.drain();

    const done = await api().get(`/api/v1/sessionrequests/${res.body._id}`).set('x-api-key', key());
    expect(done.body.status).toBe('completed');
    expect(done.body.signers.map((s: { status: string }) => s.status)).toEqual(['signed', 'signed']);
    const sessions = await api()
      .get(`/api/v1/sessions?sessionRequestId=${res.body._id}`)
      .set('x-api-key', key());
    const documents = sessions.body.sessions[0].documents as { fileUrl: string; fileName: string }[];
    expect(documents).toHaveLength(2);
    expect(documents[1]!.fileName).toMatch(/^Intake [0-9a-f]{8} \(ondertekend\)\.pdf$/);
    const pdf = (await asBuffer(api().get(documents[1]!.fileUrl).set('x-api-key', key()))).body as Buffer;
    // Each signer gets their own copy by e-mail, the sealed file attached.
    await until(
      async () => smtp.received.filter((m) => m.subject.startsWith('Uw ondertekend exemplaar')).length === 2,
    );
    const copies = smtp.received.filter((m) => m.subject.startsWith('Uw ondertekend exemplaar'));
    expect(copies.map((m) => m.to[0]).sort()).toEqual(['dmitri@example.test', 'lukasz.z@example.test']);
    for (const copy of copies) {
      expect(copy.attachments).toHaveLength(1);
      expect(Buffer.compare(copy.attachments[0]!.content, pdf)).toBe(0);
      expect(copy.html).toContain('Het ondertekende document zit als PDF bij dit bericht.');
    }
    const report = await pdfsig(pdf);
    expect(report).toContain('Signature #2');
    expect(report.match(/Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain('Total document signed');
    const verification = await api()
      .get(`/api/v1/files/${(documents[1] as unknown as { fileId: string }).fileId}/verification`)
      .set('x-api-key', key());
    expect(verification.body.valid).toBe(true);
    expect(
      verification.body.signatures.map((x: { name: string; intact: boolean; coversWholeFile: boolean }) => [
        x.name,
        x.intact,
        x.coversWholeFile,
      ]),
    ).toEqual([
      ['Lukasz Zolc', true, false],
      ['Dmitrii Ivanov', true, true],
    ]);
    const text = await pdfText(pdf);
    expect(text).toContain('Ελένη Παπαδοπούλου'); // the answer, in the report
    expect(text).toContain('Ondertekend door Łukasz Żółć');
    expect(text).toContain('Ondertekend door Дмитрий Иванов');
    expect(text).not.toContain('Intruder');
    const types = await eventTypesOf(res.body._id);
    expect(types.filter((t) => t === 'signature.signed')).toHaveLength(2);
    expect(types.at(-1)).toBe('sessionrequest.completed');
  });

  it('when customerIds names a contact twice, a contact of no organisation, or one without any address, then 400 names the entry', async () => {
    const template = await createReportTemplate(h, org);
    const ok = await createContact(h, org, { Voornaam: 'Ann', Email: 'ann@example.test' });
    const mute = await createContact(h, org, { Voornaam: 'Mute' });
    const send = (body: Record<string, unknown>) =>
      api()
        .post('/api/v1/sessionrequests')
        .set('x-api-key', key())
        .send({ type: 'multisigning', questionListIds: [template], ...body });
    const twice = await send({ customerIds: [ok, ok] });
    expect(twice.body.details).toEqual([
      expect.objectContaining({ field: 'customerIds[1]', message: 'repeats a contact' }),
    ]);
    const both = await send({ customerId: ok, customerIds: [ok] });
    expect(both.body.details[0].field).toBe('customerIds');
    const unreachable = await send({ customerIds: [ok, mute] });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.details[0]).toMatchObject({ field: 'customerIds[1]' });
    expect(unreachable.body.details[0].message).toContain('one-time code');
    const qlist = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({ type: 'qlist', questionListIds: [template], customerIds: [ok] });
    expect(qlist.body.details[0].field).toBe('customerIds');
  });
});

describe('a co-signer’s contact is deleted', () => {
  it('when the second signer’s contact is deleted, then it is refused (409) naming the action, and with cascade the action they sign goes too', async () => {
    const a = await createContact(h, org, { Voornaam: 'Anna', Email: 'anna.cosign@example.test' });
    const b = await createContact(h, org, { Voornaam: 'Bram', Email: 'bram.cosign@example.test' });
    const doc = await uploadPdf('Shared');
    const res = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({ type: 'quicksign', customerIds: [a, b], document: { fileId: doc.id, title: 'Shared' } });
    expect(res.status).toBe(201);
    const refused = await api().delete(`/api/v1/customers/${b}`).set('x-api-key', key());
    expect(refused.status).toBe(409);
    expect(refused.body.details[0]).toMatchObject({ field: 'sessionRequests.total', value: '1' });
    const erased = await api().delete(`/api/v1/customers/${b}?cascade=true`).set('x-api-key', key());
    expect(erased.status).toBe(204);
    expect((await api().get(`/api/v1/sessionrequests/${res.body._id}`).set('x-api-key', key())).status).toBe(
      404,
    );
    expect((await api().get(`/api/v1/customers/${a}`).set('x-api-key', key())).status).toBe(200);
  });
});

describe('a seal certificate from configuration', () => {
  let generated: { h: Harness; org: TestOrg };
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-p12-'));
    const configured = generateSealKey('Kantoor Peeters Seal', h.clock.now());
    fs.writeFileSync(path.join(dir, 'seal.p12'), configured.p12);
    // The helpers above use `h` and `org`: point them at a service started with the certificate.
    generated = { h, org };
    h = await startHarness({
      SMTP_URL: smtp.url,
      SIGNING_CERT_P12: path.join(dir, 'seal.p12'),
      SIGNING_CERT_PASSWORD: configured.passphrase,
    });
    org = await createOrg(h, 'Kantoor Peeters');
  });
  afterAll(async () => {
    await h.close();
    ({ h, org } = generated);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when a document is signed, then its signature is made with the configured certificate, not a generated one', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    expect((await browser.post('/sign/verify', [['code', await codeByMail(browser)]])).status).toBe(303);
    const signed = await browser.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Łukasz Żółć'],
      ['consent', 'yes'],
    ]);
    expect(signed.status).toBe(303);
    await h.jobs.drain();
    const sessions = await api()
      .get(`/api/v1/sessions?sessionRequestId=${action.id}`)
      .set('x-api-key', key());
    const document = sessions.body.sessions[0].documents[0] as { fileId: string; fileUrl: string };
    const pdf = (await asBuffer(api().get(document.fileUrl).set('x-api-key', key()))).body as Buffer;
    expect(await pdfsig(pdf)).toContain('Signer Certificate Common Name: Kantoor Peeters Seal');
    const verification = await api()
      .get(`/api/v1/files/${document.fileId}/verification`)
      .set('x-api-key', key());
    expect(verification.body.signatures[0].certificate).toMatchObject({
      subject: expect.stringContaining('CN=Kantoor Peeters Seal'),
      thisService: true,
    });
    // Nothing was generated: the service made no seal key of its own.
    const [row] = await queryRows<{ n: string }>(h.database.db, sql`SELECT count(*) AS n FROM seal_keys`);
    expect(Number(row?.n)).toBe(0);
  });
});

describe('signing: what a client may send and what time may do', () => {
  it('when a drawn signature is a PNG header with nothing readable behind it, then it is refused and the signer can still sign', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    expect((await browser.post('/sign/verify', [['code', await codeByMail(browser)]])).status).toBe(303);
    const header = Buffer.alloc(80);
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(header);
    header.writeUInt32BE(200, 16);
    header.writeUInt32BE(100, 20);
    const junk = `data:image/png;base64,${header.toString('base64')}`;
    const res = await browser.post('/sign', [
      ['mark', 'drawn'],
      ['drawing', junk],
      ['consent', 'yes'],
    ]);
    expect(res.status).toBe(400);
    expect(res.text).toContain('The drawing could not be read.');
    const status = await api().get(`/api/v1/sessionrequests/${action.id}`).set('x-api-key', key());
    expect(status.body.signers[0].status).toBe('pending');
    const typed = await browser.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Łukasz'],
      ['consent', 'yes'],
    ]);
    expect(typed.status).toBe(303);
  });

  it('when a quicksign link is posted to the questionnaire’s submit, then nothing is submitted', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    expect((await browser.post('/submit', [])).status).toBe(303);
    const sessions = await api()
      .get(`/api/v1/sessions?sessionRequestId=${action.id}`)
      .set('x-api-key', key());
    expect(sessions.body.total).toBe(0);
    expect(await eventTypesOf(action.id)).not.toContain('session.submitted');
  });

  it('when every signer signed before the expiry and the document is made after it, then the action completes, not expires', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Tijd', Email: 'tijd@example.test' });
    const doc = await uploadPdf('Deadline');
    const res = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: doc.id, title: 'Deadline' },
        expiresAt: new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
      });
    const browser = signerBrowser(res.body.code);
    await browser.page();
    expect((await browser.post('/sign/verify', [['code', await codeByMail(browser)]])).status).toBe(303);
    expect(
      (
        await browser.post('/sign', [
          ['mark', 'typed'],
          ['typedName', 'Tijd'],
          ['consent', 'yes'],
        ])
      ).status,
    ).toBe(303);
    h.clock.advance(2 * 3_600_000); // the expiry job and the signed document are both due now
    await h.jobs.drain();
    const after = await api().get(`/api/v1/sessionrequests/${res.body._id}`).set('x-api-key', key());
    expect(after.body.status).toBe('completed');
  });

  it('when twenty wrong codes were typed over several codes, then no new code is sent', async () => {
    const action = await quicksign({ invite: false });
    const browser = signerBrowser(action.code);
    await browser.page();
    for (let round = 0; round < 4; round++) {
      const code = await codeByMail(browser);
      const wrong = code === '999999' ? '888888' : '999999';
      for (let i = 0; i < 5; i++) await browser.post('/sign/verify', [['code', wrong]]);
    }
    const sent = smtp.received.length;
    const blocked = await browser.post('/sign/code', [['channel', 'email']]);
    expect(blocked.status).toBe(400);
    expect(blocked.text).toContain('Too many wrong codes were typed. Please contact your adviser.');
    await h.jobs.drain();
    expect(smtp.received).toHaveLength(sent);
  });

  it('when a PDF sent for verification has a malformed signature dictionary, then the answer says so, never 500', async () => {
    const pdf = Buffer.from(
      '%PDF-1.7\n1 0 obj << /Type /Sig /Name (\\376\\377A) /ByteRange [0 20 40 5] /Contents <3082> >> endobj\n%%EOF\n',
    );
    const res = await api()
      .post('/api/v1/files/verify')
      .set('x-api-key', key())
      .attach('file', pdf, 'odd.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ signed: true, valid: false });
    expect(res.body.signatures[0].intact).toBe(false);
    expect(res.body.signatures[0].problems[0]).toMatch(/cannot be read|changed/);
  });
});

describe('every URL the service hands out', () => {
  /** Every string in `value` that is a URL of this service (absolute on BASE_URL, or a path of it). */
  const urlsIn = (value: unknown, baseUrl: string, out = new Set<string>()): Set<string> => {
    if (typeof value === 'string') {
      if (value.startsWith(`${baseUrl}/`)) out.add(value.slice(baseUrl.length));
      else if (/^\/(files|action|api)\//.test(value)) out.add(value);
    } else if (value && typeof value === 'object') {
      for (const v of Object.values(value)) urlsIn(v, baseUrl, out);
    }
    return out;
  };

  it('when every event type has happened, then each URL in the events and the session answers answers 200 with the credentials it is for (or says the thing is gone)', async () => {
    const deleted = new Set<string>();
    // Signed and declined signing actions: signature.*, sessionrequest.completed with the sealed PDF.
    const signed = await quicksign({ invite: false, title: 'Links' });
    const signer = signerBrowser(signed.code);
    await signer.page();
    expect((await signer.post('/sign/verify', [['code', await codeByMail(signer)]])).status).toBe(303);
    const mark: [string, string][] = [
      ['mark', 'typed'],
      ['typedName', 'Łukasz Żółć'],
      ['consent', 'yes'],
    ];
    expect((await signer.post('/sign', mark)).status).toBe(303);
    const declined = await quicksign({ invite: false, title: 'Refused' });
    const decliner = signerBrowser(declined.code);
    await decliner.page();
    expect((await decliner.post('/sign/verify', [['code', await codeByMail(decliner)]])).status).toBe(303);
    expect((await decliner.post('/decline', [['reason', 'No']])).status).toBe(303);
    // A questionnaire with a report, submitted twice (session.submitted, completed, reopened).
    const template = await createReportTemplate(h, org);
    const submitted = await submittedSession(h, org, { template, times: 2 });
    await api()
      .patch(`/api/v1/customers/${submitted.contact}`)
      .set('x-api-key', key())
      .send({
        data: { Voornaam: 'Marie', Email: 'marie@example.test', Gemeente: 'Gent' },
      });
    // Withdrawn, expired, and removed with their contact (sessionrequest.deleted, session.deleted).
    const open = await quicksign({ invite: true, title: 'Withdrawn' });
    expect(
      (await api().post(`/api/v1/sessionrequests/${open.id}/deactivate`).set('x-api-key', key())).status,
    ).toBe(200);
    const expiring = await quicksign({ invite: false, title: 'Expiring' });
    const expiresAt = new Date(h.clock.now().getTime() + 60_000).toISOString();
    const lapsing = await api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({ type: 'qlist', customerId: expiring.contact, questionListIds: [template], expiresAt });
    expect(lapsing.status).toBe(201);
    const gone = await submittedSession(h, org, { template });
    expect(
      (await api().delete(`/api/v1/customers/${gone.contact}?cascade=true`).set('x-api-key', key())).status,
    ).toBe(204);
    deleted.add(gone.actionId);
    const spare = await uploadPdf('Spare');
    expect((await api().delete(`/api/v1/files/${spare.id}`).set('x-api-key', key())).status).toBe(204);
    h.clock.advance(120_000);
    await h.jobs.drain();

    await untilSettled(h, org.organisationId);
    const events: { type: string; data: unknown }[] = [];
    for (let cursor = ''; ; ) {
      const page = await api()
        .get(`/api/v1/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`)
        .set('x-api-key', key());
      expect(page.status).toBe(200);
      events.push(...page.body.events);
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor;
    }
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(eventTypes));
    const goneFiles = new Set(
      events
        .filter((e) => e.type === 'file.deleted')
        .map((e) => (e.data as { file: { _id: string } }).file._id),
    );
    const sessions = await api().get('/api/v1/sessions?limit=100').set('x-api-key', key());
    // BASE_URL, as the service writes it into every link it hands out.
    const baseUrl = new URL(signed.body.url as string).origin;
    const urls = urlsIn([events.map((e) => e.data), sessions.body], baseUrl);
    const files = [...urls].filter((u) => u.startsWith('/files/downloads/'));
    expect(files.length).toBeGreaterThan(3);
    expect([...urls].filter((u) => u.startsWith('/action/')).length).toBeGreaterThan(3);

    const actions = (await api().get('/api/v1/sessionrequests?limit=100').set('x-api-key', key())).body
      .sessionRequests as { code: string; status: string }[];
    const answers: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const url of urls) {
      if (url.startsWith('/files/downloads/')) {
        answers[url] = (await asBuffer(api().get(url).set('x-api-key', key()))).status;
        expected[url] = goneFiles.has(url.split('/')[3] ?? '') ? 404 : 200;
      } else if (url.startsWith('/action/')) {
        const code = url.split('/')[2] ?? '';
        const mine = actions.find((a) => a.code === code);
        answers[url] = (await request(h.server).get(url)).status;
        // A withdrawn, expired or declined action's link says so (410); a removed one is unknown (404).
        expected[url] = !mine
          ? 404
          : ['deactivated', 'expired', 'declined'].includes(mine.status)
            ? 410
            : 200;
        if (!mine) expect(deleted.size).toBeGreaterThan(0);
      } else {
        answers[url] = (await api().get(url).set('x-api-key', key())).status;
        expected[url] = 200;
      }
    }
    expect(answers).toEqual(expected);
  });
});
