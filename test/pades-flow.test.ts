import { sql } from 'drizzle-orm';
import { startTrustServices, type TrustServices } from '../scripts/support/trust-services';
import { asBuffer, pdfsig, pdfText, samplePdf } from './support/binary';
import { createContact, createOrg, setNotices, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { signByMail, signerBrowser } from './support/signer';

// A signing action sealed at PAdES B-LTA end to end: the organisation's own CA-issued seal (uploaded),
// a real local time-stamping authority (TSA_URL, after one that always fails), the CA's OCSP responder
// and CRL. The authority is down when the document is first made: the job waits and tries again, the
// signer is never kept waiting, and nothing is made at a lower level. A test key's document is made at
// the same level, with the test seal.

let h: Harness;
let org: TestOrg;
let pki: TrustServices;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  pki = await startTrustServices();
  smtp = await startSmtpServer();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kantoor <desk@kantoor.test>',
    TSA_URL: pki.brokenTsaUrl,
    TSA_FALLBACK_URLS: pki.tsaUrl,
    TSA_TIMEOUT_SECONDS: '5',
    PADES_LEVEL: 'B-LTA',
    REVOCATION_PRIVATE_NETWORKS: '127.0.0.0/8',
  });
  org = await createOrg(h, 'Kantoor Tijd');
  await setNotices(h, org, org.adminId, 'none');
  // The certificates are valid from the machine's now: the service's clock reads it too.
  h.clock.set(new Date());
  const upload = await h
    .api()
    .put('/api/v1/admin/organisation/seal')
    .set('x-api-key', org.adminKey)
    .send({ pkcs12: pki.seal.p12.toString('base64'), password: pki.seal.passphrase });
  expect(upload.body).toMatchObject({
    source: 'organisation',
    certificate: { subject: 'CN=Kantoor Peeters seal, O=ActionDesk Tests' },
  });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await pki.close();
});

const key = () => org.adminKey;

describe('a signing action sealed at PAdES B-LTA', () => {
  it('when two signers sign while the authorities are down, then the document waits; once one answers, each signature is timestamped, the chains, the seal’s OCSP answer and a CRL are embedded, and the verification API says B-LTA', async () => {
    const one = await createContact(h, org, { Voornaam: 'Mira', Email: 'mira@example.test' });
    const two = await createContact(h, org, { Voornaam: 'Pieter', Email: 'pieter@example.test' });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', key())
      .attach('file', await samplePdf('Mandate'), 'mandate.pdf');
    const created = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', key())
      .send({
        type: 'quicksign',
        customerIds: [one, two],
        signingOrder: 'parallel',
        document: { fileId: upload.body._id, title: 'Mandate 2026' },
        language: 'en',
      });
    expect(created.status).toBe(201);
    const codes = (created.body.signers as { url: string }[]).map(
      (s) => new URL(s.url).pathname.split('/')[2]!,
    );

    pki.down = true;
    await signByMail(h, smtp, codes[0]!, 'Mira Maes');
    await signByMail(h, smtp, codes[1]!, 'Pieter Peeters');
    await h.jobs.drain();
    const waiting = await h.api().get(`/api/v1/sessionrequests/${created.body._id}`).set('x-api-key', key());
    expect(waiting.body.status).toBe('opened');
    expect(waiting.body.signers.map((s: { status: string }) => s.status)).toEqual(['signed', 'signed']);
    const [job] = await tenantRows<{ status: string; attempts: number; last_error: string }>(
      h,
      org.organisationId,
      sql`SELECT status, attempts, last_error FROM jobs WHERE kind = 'signing-finalise'`,
    );
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(job!.last_error).toContain(
      `no timestamp: ${pki.brokenTsaUrl}: answered HTTP 503; ${pki.tsaUrl}: answered HTTP 503`,
    );

    pki.down = false;
    h.clock.advance(3_600_000);
    await h.jobs.drain();
    const done = await h.api().get(`/api/v1/sessionrequests/${created.body._id}`).set('x-api-key', key());
    expect(done.body.status).toBe('completed');
    const sessions = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${created.body._id}`)
      .set('x-api-key', key());
    const document = sessions.body.sessions[0].documents[0] as { fileId: string; fileUrl: string };
    const pdf = (await asBuffer(h.api().get(document.fileUrl).set('x-api-key', key()))).body as Buffer;

    const verification = await h
      .api()
      .get(`/api/v1/files/${document.fileId}/verification`)
      .set('x-api-key', key());
    expect(verification.status).toBe(200);
    expect(verification.body).toMatchObject({
      signed: true,
      valid: true,
      modifiedAfterLastSignature: false,
      pades: {
        level: 'B-LTA',
        // The seal's and the authority's chains and the OCSP responder's certificate; the seal's OCSP
        // answer, the authority's CRL.
        validationData: { embedded: true, certificates: 4, crls: 1, ocspResponses: 1 },
      },
    });
    const signatures = verification.body.signatures as Record<string, unknown>[];
    expect(signatures.map((s) => [s.kind, s.name, s.level, s.intact])).toEqual([
      ['signature', 'Mira', 'B-T', true],
      ['signature', 'Pieter', 'B-T', true],
      ['document-timestamp', 'ActionDesk Test TSA', null, true],
    ]);
    for (const s of signatures)
      expect(s.timestamp).toMatchObject({ authority: 'ActionDesk Test TSA', intact: true });
    expect(signatures[0]!.certificate).toMatchObject({
      subject: 'CN=Kantoor Peeters seal, O=ActionDesk Tests',
      selfSigned: false,
      thisService: true,
    });

    const report = await pdfsig(pdf);
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain('Signature Field Name: Timestamp3');
    const text = await pdfText(pdf);
    expect(text).toContain('PAdES baseline B-LTA (ETSI EN 319 142-1)');
  });

  it('when an uploaded seal gives no way to check its revocation (OCSP only, its authority left out), then it is refused at this level; with the authority in the file, it is kept', async () => {
    const put = (p12: Buffer, password: string) =>
      h
        .api()
        .put('/api/v1/admin/organisation/seal')
        .set('x-api-key', key())
        .send({ pkcs12: p12.toString('base64'), password });
    const lone = pki.issueSeal('OCSP only seal', { crl: false, chain: false });
    const refused = await put(lone.p12, lone.passphrase);
    expect({ status: refused.status, field: refused.body.details?.[0]?.field }).toEqual({
      status: 400,
      field: 'pkcs12',
    });
    expect(refused.body.details[0].message).toContain(
      'documents are sealed at PAdES B-LTA, which needs each certificate’s revocation status, and there is no way to check it for OCSP only seal',
    );
    const chained = pki.issueSeal('OCSP only seal', { crl: false });
    expect((await put(chained.p12, chained.passphrase)).status).toBe(200);
    // Back to the seal the other tests use.
    expect((await put(pki.seal.p12, pki.seal.passphrase)).status).toBe(200);
  });

  it('when a test key’s action is signed, then its document has the same level (timestamps, validation data), sealed with the test seal, not the organisation’s', async () => {
    const made = await h
      .api()
      .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'Sandbox', mode: 'test' });
    const testKey = made.body.apiKey as string;
    const as = (path: string) => h.api().get(`/api/v1${path}`).set('x-api-key', testKey);
    const contact = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', testKey)
      .send({ data: { Voornaam: 'Tess', Email: 'tess@example.test' } });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', testKey)
      .attach('file', await samplePdf('Sandbox mandate'), 'mandate.pdf');
    const created = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', testKey)
      .send({
        type: 'quicksign',
        customerId: contact.body._id,
        document: { fileId: upload.body._id, title: 'Sandbox mandate' },
        language: 'en',
      });
    expect(created.status).toBe(201);
    const stamped = pki.counts.stamped;
    const signer = signerBrowser(h, created.body.code);
    await signer.page();
    expect((await signer.post('/sign/code', [['channel', 'email']])).status).toBe(303);
    await h.jobs.drain();
    const inbox = (await as('/test/messages?to=tess@example.test')).body.messages as {
      code: string | null;
    }[];
    const otp = inbox.find((m) => m.code)!.code!;
    expect((await signer.post('/sign/verify', [['code', otp]])).status).toBe(303);
    await signer.page();
    const signed = await signer.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Tess'],
      ['consent', 'yes'],
    ]);
    expect(signed.status).toBe(303);
    await h.jobs.drain();

    expect((await as(`/sessionrequests/${created.body._id}`)).body.status).toBe('completed');
    // One timestamp for the signature, one for the document.
    expect(pki.counts.stamped - stamped).toBe(2);
    const sessions = await as(`/sessions?sessionRequestId=${created.body._id}`);
    const fileId = sessions.body.sessions[0].documents[0].fileId as string;
    const verification = await as(`/files/${fileId}/verification`);
    expect(verification.body).toMatchObject({
      livemode: false,
      valid: true,
      // The test seal is self-signed: only the authority's chain is in the store, with its CRL.
      pades: { level: 'B-LTA', validationData: { embedded: true, crls: 1, ocspResponses: 0 } },
    });
    expect(verification.body.signatures[0].certificate).toMatchObject({ testSeal: true, selfSigned: true });
  });
});
