import type request from 'supertest';
import { startTrustServices, type TrustServices } from '../scripts/support/trust-services';
import { englishIn } from './support/english';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';

// Settings → Document seal (administrators): the organisation's seal as a page — which certificate is
// in use, uploading its own PKCS#12 file with its password in one form, removing it — with the same use
// cases and refusals as /api/v1/admin/organisation/seal.

let h: Harness;
let org: TestOrg;
let pki: TrustServices;
let adminEmail: string;
let admin: ReturnType<typeof request.agent>;
let adviser: ReturnType<typeof request.agent>;

const PAGE = '/staff/settings/seal';

beforeAll(async () => {
  pki = await startTrustServices();
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Stempel');
  // The certificates are valid from the machine's now (set before signing in: sessions follow the clock).
  h.clock.set(new Date());
  adminEmail = (await staffUser(h, org, ['administrator'], 'Paula Admin')).email;
  admin = (await signedIn(h, adminEmail)).agent;
  adviser = (await signedIn(h, (await staffUser(h, org, ['adviser'], 'Ann Adviser')).email)).agent;
});
afterAll(async () => {
  await h.close();
  await pki.close();
});

const seal = async () =>
  (await h.api().get('/api/v1/admin/organisation/seal').set('x-api-key', org.adminKey)).body;

/** The page's upload address (it carries the CSRF token: the body is a file). */
async function uploadAddress(): Promise<string> {
  const page = await admin.get(PAGE);
  return /action="(\/staff\/settings\/seal\?_csrf=[^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
}

/** The upload form as a browser sends it: the password field first, then the file (as in the page). */
async function uploadSeal(p12: Buffer, password: string, language = 'en') {
  return admin
    .post(await uploadAddress())
    .set('Accept-Language', language)
    .field('password', password)
    .attach('file', p12, 'seal.p12');
}

/** The text of an element with this id, tags removed. */
const textOf = (page: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(page)?.[1]?.trim();

describe('the document seal page (staff)', () => {
  it('when an administrator opens their settings, then they find the page, showing the service’s seal and the level', async () => {
    expect((await admin.get('/staff/settings')).text).toContain(`href="${PAGE}"`);
    const page = await admin.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<strong>The service’s seal</strong>');
    const service = await seal();
    expect(page.text).toContain(`<code>${service.certificate.fingerprint}</code>`);
    expect(page.text).toContain('PAdES baseline B-B');
    expect(page.text).toContain('enctype="multipart/form-data"');
    expect(page.text).toMatch(/<input type="password" id="password" name="password"/);
    expect(page.text).not.toContain(`action="${PAGE}/delete"`);

    const dutch = await admin.get(PAGE).set('Accept-Language', 'nl');
    expect(dutch.text).toContain('<h1>Documentzegel</h1>');
    expect(englishIn(dutch.text)).toEqual([]);
  });

  it('when an adviser opens it or posts to it, then 403, and their settings do not link to it', async () => {
    expect((await adviser.get(PAGE)).status).toBe(403);
    expect((await adviser.get('/staff/settings')).text).not.toContain(`href="${PAGE}"`);
    const good = pki.issueSeal('Adviser seal');
    const page = await adviser.get('/staff/settings');
    const res = await adviser
      .post(`${PAGE}?_csrf=${encodeURIComponent(csrfIn(page.text))}`)
      .field('password', good.passphrase)
      .attach('file', good.p12, 'seal.p12');
    expect(res.status).toBe(403);
    expect((await seal()).source).toBe('service');
  });

  it('when the password is wrong, then the page says so on the password field, in the reader’s language, and nothing changes', async () => {
    const good = pki.issueSeal('Refused seal');
    const res = await uploadSeal(good.p12, 'not the password');
    expect(res.status).toBe(400);
    expect(textOf(res.text, 'password-error')).toBe('This password does not open the file.');
    expect(res.text).toMatch(
      /id="password"[^>]*aria-describedby="password-hint password-error"[^>]*aria-invalid="true"/,
    );
    expect(res.text).not.toContain('id="file-error"');
    expect(res.text).not.toContain('not the password');

    const dutch = await uploadSeal(Buffer.from('hello, not a seal'), 'x', 'nl');
    expect(dutch.status).toBe(400);
    expect(textOf(dutch.text, 'file-error')).toBe('Dit is geen PKCS#12-bestand (.p12 of .pfx).');
    expect((await seal()).source).toBe('service');
  });

  it('when the certificate may not sign, or the file is over 64 KB, then the file field says why', async () => {
    const cannotSign = pki.issueSeal('Encipher only', { keyUsage: 'keyEncipherment' });
    const res = await uploadSeal(cannotSign.p12, cannotSign.passphrase, 'fr');
    expect(textOf(res.text, 'file-error')).toBe(
      'Le certificat du fichier ne peut pas servir à signer (usage de la clé).',
    );
    const big = await uploadSeal(Buffer.alloc(64 * 1024 + 1, 1), 'x');
    expect(big.status).toBe(400);
    expect(textOf(big.text, 'file-error')).toBe(
      'The file is larger than 64 KB: it is not a seal’s PKCS#12 file.',
    );
    expect((await seal()).source).toBe('service');
  });

  it('when the form holds a field it does not know, the password twice, or a password over 4 KB, then the page says the upload could not be read and nothing changes', async () => {
    const good = pki.issueSeal('Odd form seal');
    const to = await uploadAddress();
    const extra = await admin
      .post(to)
      .field('password', good.passphrase)
      .field('comment', 'hi')
      .attach('file', good.p12, 'seal.p12');
    const unreadable =
      'The upload could not be read. Choose the file again, type its password and send the form once.';
    // The form again, saying so on the file field.
    expect(extra.status).toBe(400);
    expect(textOf(extra.text, 'file-error')).toBe(unreadable);
    const twice = await admin
      .post(to)
      .field('password', good.passphrase)
      .field('password', good.passphrase)
      .attach('file', good.p12, 'seal.p12');
    expect(twice.status).toBe(400);
    expect(textOf(twice.text, 'file-error')).toBe(unreadable);
    const long = await admin
      .post(to)
      .field('password', 'x'.repeat(4097))
      .attach('file', good.p12, 'seal.p12');
    expect(long.status).toBe(400);
    expect(textOf(long.text, 'file-error')).toBe(unreadable);
    expect((await seal()).source).toBe('service');
  });

  it('when a seal expiring in 20 days is uploaded (password after the file), then it is in use, the page shows it with a warning, and it can be removed', async () => {
    const soon = pki.issueSeal('Kantoor Stempel seal', { days: 20 });
    const res = await admin
      .post(await uploadAddress())
      .attach('file', soon.p12, 'kantoor.pfx')
      .field('password', soon.passphrase);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?done=uploaded`);
    const now = await seal();
    expect(now).toMatchObject({
      source: 'organisation',
      certificate: { subject: 'CN=Kantoor Stempel seal, O=ActionDesk Tests' },
    });

    const page = await admin.get(`${PAGE}?done=uploaded`);
    expect(page.text).toContain('Your seal is uploaded.');
    expect(page.text).toContain('<strong>Your organisation’s own seal</strong>');
    expect(page.text).toContain('CN=Kantoor Stempel seal, O=ActionDesk Tests');
    expect(page.text).toContain('CN=ActionDesk Test CA, O=ActionDesk Tests');
    expect(page.text).toContain(`<code>${now.certificate.fingerprint}</code>`);
    expect(page.text).toContain(`Your seal expires in ${now.expiresInDays} days.`);
    expect(page.text).toContain('Replace your seal');
    expect(page.text).not.toContain(soon.passphrase);

    // Past its end, the page says the organisation's own seal expired and the service's is in use.
    // (Sessions follow the clock too: the administrator signs in again on each side of the jump.)
    h.clock.advance(21 * 86_400_000);
    const later = (await signedIn(h, adminEmail)).agent;
    const expired = await later.get(PAGE);
    expect(expired.text).toContain('<strong>The service’s seal</strong>');
    expect(expired.text).toContain('Your organisation’s own seal expired on');
    expect((await seal()).ownSealExpiredAt).toBe(now.certificate.notAfter);
    h.clock.set(new Date());
    admin = (await signedIn(h, adminEmail)).agent;

    const removePage = await admin.get(PAGE);
    const removed = await admin
      .post(`${PAGE}/delete`)
      .type('form')
      .send({ _csrf: csrfIn(removePage.text) });
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe(`${PAGE}?done=removed`);
    expect(await seal()).toMatchObject({ source: 'service', ownSealExpiredAt: null });
    const again = await admin
      .post(`${PAGE}/delete`)
      .type('form')
      .send({ _csrf: csrfIn(removePage.text) });
    expect(again.headers.location).toBe(`${PAGE}?done=removed`);
  });
});
