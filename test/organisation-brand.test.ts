import { randomBytes } from 'node:crypto';
import { BrandSettings } from '../src/modules/organisations/brand.schemas';
import { asBuffer, sampleJpeg, samplePdf, samplePng } from './support/binary';
import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Peeters BV');
  other = await createOrg(h, 'Kantoor Elders');
});
afterAll(() => h.close());

const BRAND = '/api/v1/admin/organisation/brand';
const LOGO = `${BRAND}/logo`;
const as = (key: string) => ({
  get: (path: string) => h.api().get(path).set('x-api-key', key),
  patch: (path: string) => h.api().patch(path).set('x-api-key', key),
  put: (path: string) => h.api().put(path).set('x-api-key', key),
  delete: (path: string) => h.api().delete(path).set('x-api-key', key),
});
const admin = () => as(org.adminKey);

async function brandOf(key: string) {
  const res = await as(key).get(BRAND);
  expect(res.status).toBe(200);
  return BrandSettings.parse(res.body);
}

const auditOf = async (requestId: string) =>
  (await admin().get(`/api/v1/audit-events?requestId=${encodeURIComponent(requestId)}`)).body.events as {
    action: string;
    target: { type: string; id: string };
    summary: Record<string, unknown>;
  }[];

describe('the organisation’s brand (API)', () => {
  it('when nothing is set, then contacts see the organisation’s name and the product’s look', async () => {
    expect(await brandOf(org.adminKey)).toEqual({
      organisationName: 'Kantoor Peeters BV',
      brandName: null,
      displayName: 'Kantoor Peeters BV',
      colour: null,
      shownColour: null,
      logo: null,
      mailSenderName: null,
      mailReplyTo: null,
      smsSender: null,
      requireCodeToDecline: false,
    });
  });

  it('when an administrator sets the brand, then it is kept, shown, and the change is audited', async () => {
    const res = await admin().patch(BRAND).send({
      brandName: '  Peeters Advies ',
      colour: '#1A5E20',
      mailSenderName: 'Peeters Advies',
      mailReplyTo: 'klanten@peeters.test',
      smsSender: 'Peeters',
      requireCodeToDecline: true,
    });
    expect(res.status).toBe(200);
    expect(BrandSettings.parse(res.body)).toMatchObject({
      brandName: 'Peeters Advies',
      displayName: 'Peeters Advies',
      colour: '#1a5e20',
      shownColour: '#1a5e20',
      mailSenderName: 'Peeters Advies',
      mailReplyTo: 'klanten@peeters.test',
      smsSender: 'Peeters',
      requireCodeToDecline: true,
    });
    expect(await brandOf(org.adminKey)).toEqual(res.body);
    const [event] = await auditOf(String(res.headers['x-request-id']));
    expect(event).toMatchObject({
      action: 'organisation.updated',
      target: { type: 'organisation', id: org.organisationId },
      summary: {
        brandName: { before: null, after: 'Peeters Advies' },
        brandColour: { before: null, after: '#1a5e20' },
        requireCodeToDecline: { before: false, after: true },
      },
    });
  });

  it('when the colour is too light for white text, then it is kept as sent and shown darkened', async () => {
    const res = await admin().patch(BRAND).send({ colour: '#ffcc00' });
    expect(res.status).toBe(200);
    expect(res.body.colour).toBe('#ffcc00');
    expect(res.body.shownColour).toMatch(/^#[0-9a-f]{6}$/);
    expect(res.body.shownColour).not.toBe('#ffcc00');
    await admin().patch(BRAND).send({ colour: '#1a5e20' });
  });

  it.each([
    ['colour', { colour: 'green' }],
    ['colour', { colour: '#12345' }],
    ['mailReplyTo', { mailReplyTo: 'not an address' }],
    ['smsSender', { smsSender: 'Peeters Advies BV' }],
    ['smsSender', { smsSender: '0475123456' }],
    ['smsSender', { smsSender: 'Peeters!' }],
    ['brandName', { brandName: '' }],
    ['mailSenderName', { mailSenderName: 'Peeters\r\nBcc: x@y.test' }],
    ['requireCodeToDecline', { requireCodeToDecline: 'yes' }],
  ])('when %s is invalid (%j), then 400 names it and nothing changes', async (field, body) => {
    const before = await brandOf(org.adminKey);
    const res = await admin().patch(BRAND).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400 });
    expect(res.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, in: 'body' })]),
    );
    expect(await brandOf(org.adminKey)).toEqual(before);
  });

  it('when the body is empty or names an unknown field, then 400', async () => {
    expect((await admin().patch(BRAND).send({})).status).toBe(400);
    const unknown = await admin().patch(BRAND).send({ font: 'Comic Sans' });
    expect(unknown.status).toBe(400);
  });

  it('when a field is sent as null, then it is cleared (back to the default)', async () => {
    await admin().patch(BRAND).send({ mailSenderName: 'Tijdelijk' });
    const res = await admin().patch(BRAND).send({ mailSenderName: null });
    expect(res.status).toBe(200);
    expect(res.body.mailSenderName).toBeNull();
    await admin().patch(BRAND).send({ mailSenderName: 'Peeters Advies' });
  });

  it('when a PNG logo is uploaded, then it is served at a public, cacheable address that changes with it', async () => {
    const png = await samplePng(40, 20);
    const res = await admin().put(LOGO).attach('file', png, 'logo.png');
    expect(res.status).toBe(200);
    const brand = BrandSettings.parse(res.body);
    expect(brand.logo).toEqual({
      url: expect.stringMatching(new RegExp(`^/logos/${org.organisationId}/[0-9a-z]{20}$`)),
      contentType: 'image/png',
      size: png.length,
    });
    const served = await asBuffer(h.api().get(brand.logo!.url));
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.body as Buffer, png)).toBe(0);
    const [event] = await auditOf(String(res.headers['x-request-id']));
    expect(event).toMatchObject({
      action: 'organisation_logo.created',
      summary: { contentType: { after: 'image/png' }, bytes: 'set' },
    });

    const jpeg = await sampleJpeg('Logo');
    const again = await admin().put(LOGO).attach('file', jpeg, 'logo.jpg');
    expect([again.status, again.body.error]).toEqual([200, undefined]);
    expect(again.body.logo).toMatchObject({ contentType: 'image/jpeg', size: jpeg.length });
    expect(again.body.logo.url).not.toBe(brand.logo!.url);
    expect((await h.api().get(brand.logo!.url)).status).toBe(404);
    const newer = await asBuffer(h.api().get(again.body.logo.url));
    expect(newer.headers['content-type']).toBe('image/jpeg');
  });

  it.each([
    [
      'an SVG',
      () =>
        Buffer.from(
          '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      'logo.svg',
      /SVG/,
    ],
    ['a PDF', () => samplePdf('Not a logo'), 'logo.png', /PNG or JPEG/],
    [
      'a PNG over 200 KB',
      () => samplePng(300, 300, () => [...randomBytes(3)] as [number, number, number]),
      'big.png',
      /200 KB/,
    ],
    ['a broken PNG', async () => (await samplePng(20, 20)).subarray(0, 40), 'broken.png', /cannot be read/],
  ])(
    'when %s is uploaded as the logo, then 400 names the field and nothing changes',
    async (_what, make, name, why) => {
      const before = await brandOf(org.adminKey);
      const res = await admin()
        .put(LOGO)
        .attach('file', await make(), name);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        expect.objectContaining({ field: 'file', message: expect.stringMatching(why) }),
      ]);
      expect(await brandOf(org.adminKey)).toEqual(before);
    },
  );

  it('when the upload is not multipart or holds another field, then it is refused naming it', async () => {
    const json = await admin().put(LOGO).send({ file: 'x' });
    expect(json.status).toBe(415);
    const extra = await admin()
      .put(LOGO)
      .field('colour', '#000000')
      .attach('file', await samplePng(4, 4), 'logo.png');
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([expect.objectContaining({ field: 'colour' })]);
  });

  it('when the logo is removed, then its address answers 404, and removing again is 404', async () => {
    const set = await admin()
      .put(LOGO)
      .attach('file', await samplePng(8, 8), 'logo.png');
    const url = set.body.logo.url as string;
    const removed = await admin().delete(LOGO);
    expect(removed.status).toBe(204);
    expect((await brandOf(org.adminKey)).logo).toBeNull();
    expect((await h.api().get(url)).status).toBe(404);
    expect((await admin().delete(LOGO)).status).toBe(404);
  });

  it('when the caller has no key or is not an administrator, then 401 or 403', async () => {
    expect((await h.api().get(BRAND)).status).toBe(401);
    expect((await h.api().patch(BRAND).send({ colour: '#000000' })).status).toBe(401);
    const adviser = await createUserWithKey(h, org, ['adviser']);
    expect((await as(adviser.key).get(BRAND)).status).toBe(403);
    expect((await as(adviser.key).patch(BRAND).send({ colour: '#000000' })).status).toBe(403);
    expect(
      (
        await as(adviser.key)
          .put(LOGO)
          .attach('file', await samplePng(4, 4), 'l.png')
      ).status,
    ).toBe(403);
    expect((await as(adviser.key).delete(LOGO)).status).toBe(403);
  });

  it('when another organisation reads or changes its brand, then it sees and changes only its own', async () => {
    const ours = await admin()
      .put(LOGO)
      .attach('file', await samplePng(6, 6), 'logo.png');
    const theirs = await brandOf(other.adminKey);
    expect(theirs).toMatchObject({ organisationName: 'Kantoor Elders', brandName: null, logo: null });
    const changed = await as(other.adminKey).patch(BRAND).send({ brandName: 'Elders', colour: '#000000' });
    expect(changed.status).toBe(200);
    expect((await as(other.adminKey).delete(LOGO)).status).toBe(404);
    expect(await brandOf(org.adminKey)).toMatchObject({ brandName: 'Peeters Advies', colour: '#1a5e20' });
    // Our logo's id under their organisation's address is no logo.
    const logoId = String(ours.body.logo.url).split('/').pop();
    expect((await h.api().get(`/logos/${other.organisationId}/${logoId}`)).status).toBe(404);
    expect((await h.api().get(ours.body.logo.url)).status).toBe(200);
  });
});
