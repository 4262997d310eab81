import { samplePdf } from './support/binary';
import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  h = await startHarness({ BASE_URL: 'https://desk.example.test' });
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

const upload = async (o: TestOrg, content: Buffer, name = 'contract.pdf') => {
  const res = await h.api().post('/api/v1/files').set('x-api-key', o.adminKey).attach('file', content, name);
  expect(res.status).toBe(201);
  return res.body as { _id: string; fileName: string; size: number };
};
const quickSetup = (body: unknown, o: TestOrg = org) =>
  h
    .api()
    .post('/api/v1/quicksigningsetup')
    .set('x-api-key', o.adminKey)
    .send(body as object);
const actionSetup = (body: unknown, o: TestOrg = org) =>
  h
    .api()
    .post('/api/v1/bc/actionsetup')
    .set('x-api-key', o.adminKey)
    .send(body as object);

describe('POST /api/v1/quicksigningsetup (spec 4.10)', () => {
  it('when a CRM sends a contact and an uploaded PDF, then it gets a setupId whose deep link and pre-filled data can be read back, with the contact matched by guid', async () => {
    const file = await upload(org, await samplePdf('Contract', 2));
    const res = await quickSetup({
      customer: {
        firstname: 'Marie',
        lastname: 'Claes',
        email: 'marie.setup@example.test',
        gsm: '+32470123456',
        guid: 'CRM-42',
      },
      document: { fileid: file._id, title: 'Contract 2026', type: 'Mandaat' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, setupId: expect.any(String) });
    const setupId = res.body.setupId as string;

    const read = await h.api().get(`/api/v1/quicksigningsetup/${setupId}`).set('x-api-key', org.adminKey);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      setupId,
      url: `https://desk.example.test/sessionrequests/quicksigningrequest/${setupId}`,
      customer: {
        firstname: 'Marie',
        lastname: 'Claes',
        email: 'marie.setup@example.test',
        guid: 'CRM-42',
        contact: null,
      },
      document: {
        fileid: file._id,
        title: 'Contract 2026',
        // Spec 4.10 lists no types: what the CRM calls it is kept as sent.
        type: 'Mandaat',
        fileName: 'contract.pdf',
        size: file.size,
      },
      usedAt: null,
      sessionRequestIds: [],
      createdAt: '2026-03-02T09:00:00.000Z',
      expiresAt: '2026-03-03T09:00:00.000Z',
    });

    const contact = await createContact(h, org, { Voornaam: 'Marie', Email: 'other@example.test' });
    const linked = await h
      .api()
      .patch(`/api/v1/customers/${contact}`)
      .set('x-api-key', org.adminKey)
      .send({ thirdpartyId: 'CRM-42' });
    expect(linked.status).toBe(200);
    const matched = await h.api().get(`/api/v1/quicksigningsetup/${setupId}`).set('x-api-key', org.adminKey);
    expect(matched.body.customer.contact).toEqual({ _id: contact, by: 'thirdpartyId' });
    // Another organisation never sees it.
    expect(
      (await h.api().get(`/api/v1/quicksigningsetup/${setupId}`).set('x-api-key', other.adminKey)).status,
    ).toBe(404);
  });

  it('when required fields are missing, then 400 names each of them and nothing is stored', async () => {
    const res = await quickSetup({ customer: { gsm: '+32470123456' }, document: { type: 'offer' } });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'customer.email',
      'customer.firstname',
      'customer.lastname',
      'document.fileid',
      'document.title',
    ]);
    const blank = await quickSetup({
      customer: { firstname: ' ', lastname: 'Claes', email: 'not-an-address' },
      document: { fileid: 'x', title: 'T', type: '  ' },
    });
    expect(blank.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'customer.email',
      'customer.firstname',
      'document.type',
    ]);
  });

  it('when the document is unknown, another organisation’s, or not a PDF that can be signed, then 400 names document.fileid the same way and tells nothing of the other organisation', async () => {
    const customer = { firstname: 'Jan', lastname: 'Peeters', email: 'jan.setup@example.test' };
    const theirs = await upload(other, await samplePdf('Theirs'));
    const unknown = await quickSetup({
      customer,
      document: { fileid: '01900000-0000-7000-8000-000000000000', title: 'T' },
    });
    const foreign = await quickSetup({ customer, document: { fileid: theirs._id, title: 'T' } });
    expect(unknown.status).toBe(400);
    expect(foreign.body.details).toEqual(unknown.body.details);
    expect(foreign.body.details).toEqual([
      expect.objectContaining({ field: 'document.fileid', message: 'is not a file of this organisation' }),
    ]);
    const broken = await upload(org, Buffer.from('%PDF-1.4\nnot a real pdf\n%%EOF\n'), 'broken.pdf');
    const unsignable = await quickSetup({ customer, document: { fileid: broken._id, title: 'T' } });
    expect(unsignable.body.details[0]).toMatchObject({
      field: 'document.fileid',
      message: expect.stringContaining('can be read'),
    });
  });

  it('when the setup is older than SETUP_TTL_HOURS, then reading it answers 410 saying it expired', async () => {
    const file = await upload(org, await samplePdf('Soon'));
    const res = await quickSetup({
      customer: { firstname: 'Eva', lastname: 'Maes', email: 'eva.setup@example.test' },
      document: { fileid: file._id, title: 'Soon' },
    });
    h.clock.advance(24 * 3_600_000);
    const late = await h
      .api()
      .get(`/api/v1/quicksigningsetup/${res.body.setupId}`)
      .set('x-api-key', org.adminKey);
    expect(late.status).toBe(410);
    expect(late.body.error).toMatch(/^Quick-signing setup expired on .*: make a new one$/);
  });
});

describe('POST /api/v1/bc/actionsetup (spec 4.11)', () => {
  it('when a CRM preselects contacts, then each is matched by thirdpartyId, then e-mail, or left to be made when the adviser sends', async () => {
    const byEmail = await createContact(h, org, { Voornaam: 'Lies', Email: 'Lies.Setup@Example.test' });
    const res = await actionSetup({
      customers: [
        { firstname: 'Lies', lastname: 'Wouters', email: 'lies.setup@example.test' },
        { firstname: 'Nieuw', lastname: 'Contact', email: 'new.setup@example.test', thirdpartyId: 'BC-7' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, actionSetupId: expect.any(String) });
    const read = await h
      .api()
      .get(`/api/v1/bc/actionsetup/${res.body.actionSetupId}`)
      .set('x-api-key', org.adminKey);
    expect(read.body.url).toBe(`https://desk.example.test/sessionrequests/${res.body.actionSetupId}`);
    expect(read.body.customers).toEqual([
      expect.objectContaining({ email: 'lies.setup@example.test', contact: { _id: byEmail, by: 'email' } }),
      expect.objectContaining({ thirdpartyId: 'BC-7', contact: null }),
    ]);
    expect(
      (await h.api().get(`/api/v1/bc/actionsetup/${res.body.actionSetupId}`).set('x-api-key', other.adminKey))
        .status,
    ).toBe(404);
    // An action setup is not a quick-signing setup.
    expect(
      (
        await h
          .api()
          .get(`/api/v1/quicksigningsetup/${res.body.actionSetupId}`)
          .set('x-api-key', org.adminKey)
      ).status,
    ).toBe(404);
  });

  it('when a contact has neither email nor thirdpartyId, or there are none, then 400 names it', async () => {
    const none = await actionSetup({ customers: [] });
    expect(none.body.details[0]).toMatchObject({ field: 'customers' });
    const anonymous = await actionSetup({
      customers: [{ email: 'a@example.test' }, { firstname: 'Nobody' }],
    });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.details).toEqual([
      expect.objectContaining({
        field: 'customers[1]',
        message: 'needs an email or a thirdpartyId, to find or create the contact',
      }),
    ]);
  });
});
