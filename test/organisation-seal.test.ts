import { sql } from 'drizzle-orm';
import forge from 'node-forge';
import { startTrustServices, type TrustServices } from '../scripts/support/trust-services';
import { createOrg, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { until } from './support/until';

// An organisation's own seal (PUT/GET/DELETE /admin/organisation/seal): what is refused and why, that
// nothing secret leaves or reaches the audit trail, and the e-mail to the administrators 30 days before
// it expires. Its use in signing is test/pades-flow.test.ts.

let h: Harness;
let org: TestOrg;
let pki: TrustServices;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  pki = await startTrustServices();
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Desk <desk@example.test>' });
  org = await createOrg(h, 'Kantoor Zegel');
  // The certificates are valid from the machine's now.
  h.clock.set(new Date());
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await pki.close();
});

const seal = () => h.api().get('/api/v1/admin/organisation/seal').set('x-api-key', org.adminKey);
const upload = (body: Record<string, unknown>) =>
  h.api().put('/api/v1/admin/organisation/seal').set('x-api-key', org.adminKey).send(body);
const expiryJobs = () =>
  tenantRows<{ status: string; run_at: Date; fingerprint: string }>(
    h,
    org.organisationId,
    sql`SELECT status, run_at, payload->>'fingerprint' AS fingerprint FROM jobs WHERE kind = 'seal-expiry' ORDER BY created_at, id`,
  );

describe('the organisation’s own seal', () => {
  it('when none was uploaded, then the service’s seal is the one in use', async () => {
    const res = await seal();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'service', uploadedAt: null });
    expect(res.body.certificate.subject).toMatch(/^CN=ActionDesk seal /);
  });

  it('when the file is not base64, not PKCS#12, opened with a wrong password, or its certificate may not sign, then 400 names the field and nothing changes', async () => {
    const good = pki.issueSeal('Refused seal');
    const cannotSign = pki.issueSeal('Encipher only', { keyUsage: 'keyEncipherment' });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ pkcs12: 'not base64 at all!', password: 'x' }, 'pkcs12', /base64/],
      [{ pkcs12: Buffer.from('hello').toString('base64'), password: 'x' }, 'pkcs12', /is not a PKCS#12 file/],
      [{ pkcs12: good.p12.toString('base64'), password: 'wrong' }, 'password', /does not open/],
      [
        { pkcs12: cannotSign.p12.toString('base64'), password: cannotSign.passphrase },
        'pkcs12',
        /key usage does not allow signing/,
      ],
      [{ pkcs12: good.p12.toString('base64') }, 'password', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await upload(body);
      expect({ status: res.status, field: res.body.details?.[0]?.field }).toEqual({ status: 400, field });
      expect(res.body.details[0].message).toMatch(message);
    }
    expect((await seal()).body.source).toBe('service');
    expect(await expiryJobs()).toEqual([]);
  });

  it('when a file asks for two billion key-derivation rounds, then it is refused after the time limit, opened only in a worker, and the service answers meanwhile', async () => {
    const good = pki.issueSeal('Slow seal');
    // The MAC's iteration count (PFX → MacData → iterations) raised to 2^31 - 1.
    const pfx = forge.asn1.fromDer(forge.util.createBuffer(good.p12.toString('binary')));
    const macData = pfx.value[2] as forge.asn1.Asn1;
    (macData.value as forge.asn1.Asn1[])[2]!.value = forge.asn1.integerToDer(0x7fffffff).getBytes();
    const slow = Buffer.from(forge.asn1.toDer(pfx).getBytes(), 'binary');
    // Sent now (a supertest request leaves when it is awaited or then'd); while the worker grinds, the
    // service's own thread answers: opened there, the file would hold it for hours.
    const pending = upload({ pkcs12: slow.toString('base64'), password: good.passphrase }).then((r) => r);
    expect((await h.api().get('/health')).status).toBe(200);
    const res = await pending;
    expect({ status: res.status, field: res.body.details?.[0]?.field }).toEqual({
      status: 400,
      field: 'pkcs12',
    });
    expect(res.body.details[0].message).toMatch(/takes longer than 2 s to open/);
    expect((await seal()).body.source).toBe('service');
  });

  it('when a seal expiring in 20 days is uploaded, then it is in use, the administrators are e-mailed at once and only once, and the trail records it without its secrets', async () => {
    const soon = pki.issueSeal('Kantoor Zegel seal', { days: 20 });
    const res = await upload({ pkcs12: soon.p12.toString('base64'), password: soon.passphrase });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      source: 'organisation',
      certificate: {
        subject: 'CN=Kantoor Zegel seal, O=ActionDesk Tests',
        issuer: 'CN=ActionDesk Test CA, O=ActionDesk Tests',
      },
    });
    // 20 days from its issue a moment ago, counted from the service's clock (set just before).
    expect([19, 20]).toContain(res.body.expiresInDays);
    expect(JSON.stringify(res.body)).not.toContain(soon.passphrase);
    expect((await seal()).body).toEqual(res.body);

    await h.jobs.drain();
    await until(async () => smtp.received.some((m) => m.subject.includes('expires in')));
    const mails = smtp.received.filter((m) => m.subject.includes('expires in'));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [
        [expect.stringMatching(/^admin-.*@example\.test$/)],
        `The seal certificate of Kantoor Zegel expires in ${res.body.expiresInDays} days`,
      ],
    ]);
    expect(mails[0]!.text).toContain('Certificate: CN=Kantoor Zegel seal, O=ActionDesk Tests');
    expect(mails[0]!.text).toContain('/api/v1/admin/organisation/seal');
    h.clock.advance(86_400_000);
    await h.jobs.drain();
    expect(smtp.received.filter((m) => m.subject.includes('expires in'))).toHaveLength(1);

    const [audit] = await tenantRows<{ action: string; summary: Record<string, unknown> }>(
      h,
      org.organisationId,
      sql`SELECT action, summary FROM audit_events WHERE target_type = 'organisation_seal' ORDER BY at, id`,
    );
    expect(audit!.action).toBe('organisation_seal.created');
    expect(audit!.summary).toMatchObject({ sealedP12: 'set', sealedPassphrase: 'set' });
    expect(JSON.stringify(audit!.summary)).not.toContain('v1.');
  });

  it('when it is replaced by a ten-year seal, then the warning is planned 30 days before the new one expires and the old plan is dropped; removing it brings the service’s seal back', async () => {
    const long = pki.issueSeal('Kantoor Zegel seal 2036');
    const res = await upload({ pkcs12: long.p12.toString('base64'), password: long.passphrase });
    expect(res.status).toBe(200);
    const pending = (await expiryJobs()).filter((j) => j.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0]!.fingerprint).toBe(res.body.certificate.fingerprint);
    expect(new Date(pending[0]!.run_at).getTime()).toBe(
      Date.parse(res.body.certificate.notAfter) - 30 * 86_400_000,
    );

    const removed = await h.api().delete('/api/v1/admin/organisation/seal').set('x-api-key', org.adminKey);
    expect(removed.status).toBe(204);
    expect((await seal()).body.source).toBe('service');
    expect((await expiryJobs()).filter((j) => j.status === 'pending')).toEqual([]);
    const again = await h.api().delete('/api/v1/admin/organisation/seal').set('x-api-key', org.adminKey);
    expect(again.status).toBe(404);
  });
});
