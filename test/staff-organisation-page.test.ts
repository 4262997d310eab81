import type request from 'supertest';
import { samplePng } from './support/binary';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';

// Settings → Organisation (administrators): the brand as a page, with the same use cases as the API.

let h: Harness;
let org: TestOrg;
let admin: ReturnType<typeof request.agent>;
let adviser: ReturnType<typeof request.agent>;

const PAGE = '/staff/settings/organisation';

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Peeters BV');
  admin = (await signedIn(h, (await staffUser(h, org, ['administrator'], 'Paula Admin')).email)).agent;
  adviser = (await signedIn(h, (await staffUser(h, org, ['adviser'], 'Ann Adviser')).email)).agent;
});
afterAll(() => h.close());

const brand = async () =>
  (await h.api().get('/api/v1/admin/organisation/brand').set('x-api-key', org.adminKey)).body;

async function save(fields: [string, string][]) {
  const page = await admin.get(PAGE);
  return admin
    .post(PAGE)
    .type('form')
    .send(new URLSearchParams([['_csrf', csrfIn(page.text)], ...fields]).toString());
}

async function uploadLogo(bytes: Buffer, name: string) {
  const page = await admin.get(PAGE);
  const to = /action="(\/staff\/settings\/organisation\/logo\?_csrf=[^"]+)"/
    .exec(page.text)![1]!
    .replace(/&amp;/g, '&');
  return admin.post(to).attach('file', bytes, name);
}

describe('the organisation page (staff)', () => {
  it('when an administrator opens their settings, then they find the organisation page, with the form and a preview', async () => {
    const settings = await admin.get('/staff/settings');
    expect(settings.text).toContain(`href="${PAGE}"`);
    const page = await admin.get(PAGE);
    expect(page.status).toBe(200);
    for (const name of [
      'brandName',
      'colour',
      'mailSenderName',
      'mailReplyTo',
      'smsSender',
      'requireCodeToDecline',
    ])
      expect(page.text).toContain(`name="${name}"`);
    expect(page.text).toContain('<p class="org">Kantoor Peeters BV</p>');
    expect(page.text).toContain('enctype="multipart/form-data"');
  });

  it('when an adviser opens it, then 403, and their settings do not link to it', async () => {
    expect((await adviser.get(PAGE)).status).toBe(403);
    expect((await adviser.get('/staff/settings')).text).not.toContain(`href="${PAGE}"`);
  });

  it('when the form is saved, then the brand changes and the page says so, in the preview too', async () => {
    const res = await save([
      ['brandName', 'Peeters Advies'],
      ['colour', '#FFCC00'],
      ['mailSenderName', 'Peeters Advies'],
      ['mailReplyTo', 'klanten@peeters.test'],
      ['smsSender', 'Peeters'],
      ['requireCodeToDecline', 'yes'],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?done=saved`);
    const b = await brand();
    expect(b).toMatchObject({
      brandName: 'Peeters Advies',
      colour: '#ffcc00',
      mailSenderName: 'Peeters Advies',
      mailReplyTo: 'klanten@peeters.test',
      smsSender: 'Peeters',
      requireCodeToDecline: true,
    });
    const page = await admin.get(res.headers.location!);
    expect(page.text).toContain('role="status"');
    expect(page.text).toContain('<p class="org">Peeters Advies</p>');
    // Too light for white text: the preview shows the colour contacts will see, and says why.
    expect(page.text).toContain(`.preview .button.primary{background:${b.shownColour}`);
    expect(page.text).toContain(b.shownColour);
    expect(page.text).toMatch(/name="requireCodeToDecline" value="yes"[^>]* checked/);
  });

  it('when fields are invalid, then the page names each on its field with what was sent, and nothing is saved', async () => {
    const before = await brand();
    const res = await save([
      ['brandName', 'Peeters Advies'],
      ['colour', 'green'],
      ['mailReplyTo', 'not an address'],
      ['smsSender', 'Peeters Advies BV'],
    ]);
    expect(res.status).toBe(400);
    expect(res.text).toContain('role="alert"');
    for (const field of ['colour', 'mailReplyTo', 'smsSender'])
      expect(res.text).toMatch(new RegExp(`id="${field}" name="${field}"[^>]*aria-invalid="true"`));
    expect(res.text).not.toMatch(/id="brandName" name="brandName"[^>]*aria-invalid/);
    expect(res.text).toContain('value="not an address"');
    expect(await brand()).toEqual(before);
  });

  it('when a field is emptied, then it goes back to the default', async () => {
    const res = await save([
      ['brandName', 'Peeters Advies'],
      ['colour', '#1a5e20'],
    ]);
    expect(res.status).toBe(303);
    expect(await brand()).toMatchObject({
      colour: '#1a5e20',
      mailSenderName: null,
      mailReplyTo: null,
      smsSender: null,
      requireCodeToDecline: false,
    });
  });

  it('when a logo is uploaded, then the page shows it; an SVG is refused with nothing changed; then it can be removed', async () => {
    const png = await samplePng(30, 15);
    const res = await uploadLogo(png, 'logo.png');
    expect(res.status).toBe(303);
    const url = (await brand()).logo.url as string;
    const page = await admin.get(PAGE);
    expect(page.text).toContain(`<img class="logo" src="${url}"`);
    expect(page.text).toContain(`<img class="current-logo" src="${url}"`);

    const svg = await uploadLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'logo.svg');
    expect(svg.status).toBe(400);
    expect(svg.text).toContain('role="alert"');
    expect((await brand()).logo.url).toBe(url);

    const without = await admin.post(`${PAGE}/logo`).attach('file', png, 'logo.png');
    expect(without.status).toBe(403);

    const removeFrom = await admin.get(PAGE);
    const removed = await admin
      .post(`${PAGE}/logo/delete`)
      .type('form')
      .send({ _csrf: csrfIn(removeFrom.text) });
    expect(removed.status).toBe(303);
    expect((await brand()).logo).toBeNull();
  });

  it('when the administrator reads Dutch, then the page is in Dutch', async () => {
    const page = await admin.get(PAGE).set('Accept-Language', 'nl-BE,nl;q=0.9');
    expect(page.text).toContain('<h1>Uw organisatie</h1>');
    expect(page.text).toContain('Afzendernaam van e-mails');
  });

  it('when the form is posted without its token, then 403 and nothing changes', async () => {
    const before = await brand();
    const res = await admin.post(PAGE).type('form').send({ brandName: 'Sneaky' });
    expect(res.status).toBe(403);
    expect(await brand()).toEqual(before);
  });
});
