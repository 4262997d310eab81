import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  SessionRequestDetail,
  SessionRequestList,
} from '../src/modules/sessionrequests/sessionrequests.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { samplePdf } from './support/binary';
import {
  completeAsContact,
  createContact,
  createOrg,
  createTemplate,
  createUserWithKey,
  type TestOrg,
  unknownId,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
let template: string;
let contact: string;
let contract: string;
let foreignFile: string;

/** A minimal PDF uploaded through the API; answers its id. */
async function uploadPdf(o: TestOrg, name: string) {
  const res = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', o.adminKey)
    .attach('file', await samplePdf(name), name);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body._id as string;
}

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Peeters');
  other = await createOrg(h, 'Other Org');
  template = await createTemplate(h, org);
  contact = await createContact(h, org, {
    Voornaam: 'An',
    Email: 'an@example.test',
    Telefoon: '+32470000001',
  });
  contract = await uploadPdf(org, 'contract.pdf');
  foreignFile = await uploadPdf(other, 'theirs.pdf');
});
afterAll(() => h.close());

const create = (body: Record<string, unknown>, key = org.adminKey) =>
  h.api().post('/api/v1/sessionrequests').set('x-api-key', key).send(body);
const action = (body: Record<string, unknown> = {}) =>
  create({ type: 'qlist', customerId: contact, questionListIds: [template], ...body });
const get = (id: string, key = org.adminKey) =>
  h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', key);
const reopen = (id: string, body?: object, key = org.adminKey) => {
  const r = h.api().post(`/api/v1/sessionrequests/${id}/reopen`).set('x-api-key', key);
  return body ? r.send(body) : r;
};
const deactivate = (id: string, key = org.adminKey) =>
  h.api().post(`/api/v1/sessionrequests/${id}/deactivate`).set('x-api-key', key);
const complete = (id: string) => completeAsContact(h, org.organisationId, id);
const visit = (code: string) => h.api().get(`/action/${code}`);

async function statusOf(id: string) {
  return (await get(id)).body.status as string;
}

async function countActions(o: TestOrg) {
  const [row] = await inTenant(h.database, systemContext(o.organisationId), (tx) =>
    queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM session_requests`),
  );
  return Number(row?.n);
}

async function countJobs(o: TestOrg) {
  const [row] = await inTenant(h.database, systemContext(o.organisationId), (tx) =>
    queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM jobs`),
  );
  return Number(row?.n);
}

describe('POST /api/v1/sessionrequests', () => {
  it('when an e-mail invitation is asked, then 201 says sent, with an unguessable code, its url, the queued e-mail and the history', async () => {
    const res = await action({
      notificationEmail: { send: true },
      notificationSms: { send: false },
      language: 'fr',
    });
    expect(res.status).toBe(201);
    const body = SessionRequestDetail.parse(res.body);
    expect(body.status).toBe('sent');
    expect(body.code).toMatch(/^[0-9a-hjkmnp-tv-z]{20}$/);
    expect(body.url).toBe(`http://localhost:3000/action/${body.code}`);
    expect(body).toMatchObject({
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
      language: 'fr',
      notificationEmail: { send: true },
      notificationSms: { send: false },
      createdBy: org.adminId,
      createdAt: '2026-03-02T09:00:00.000Z',
      sentAt: '2026-03-02T09:00:00.000Z',
    });
    expect(body.notifications).toEqual([
      expect.objectContaining({ channel: 'email', purpose: 'invitation', status: 'pending', attempts: 0 }),
    ]);
    expect(body.history).toEqual([
      { from: null, to: 'sent', at: '2026-03-02T09:00:00.000Z', actor: 'user', userId: org.adminId },
    ]);
    // The job was committed with the action: reading it back shows the same.
    const again = SessionRequestDetail.parse((await get(body._id)).body);
    expect(again.notifications).toEqual(body.notifications);
    expect(again.history).toEqual(body.history);
  });

  it('when no invitation is asked, then the action is created (not sent) and nothing is queued', async () => {
    const res = await action();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'created', sentAt: null, notifications: [], language: 'nl' });
  });

  it('when a quicksign action names a document, or a campaign has no contact, then both are created', async () => {
    const sign = await create({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: contract, title: 'Contract' },
    });
    expect(sign.status).toBe(201);
    expect(sign.body).toMatchObject({
      type: 'quicksign',
      questionListIds: [],
      document: { fileId: contract, title: 'Contract' },
    });
    const campaign = await create({ type: 'campaign', questionListIds: [template] });
    expect(campaign.status).toBe(201);
    expect(campaign.body).toMatchObject({ type: 'campaign', customerId: null, status: 'created' });
  });

  describe('when the input is wrong, then 400 names the field and nothing is stored', () => {
    let inactive: string;
    let foreignTemplate: string;
    let foreignContact: string;
    let noEmail: string;
    let nlOnly: string;
    beforeAll(async () => {
      inactive = await createTemplate(h, org, { active: false });
      foreignTemplate = await createTemplate(h, other);
      foreignContact = await createContact(h, other, { Voornaam: 'X', Email: 'x@example.test' });
      noEmail = await createContact(h, org, { Voornaam: 'Nobody' });
      nlOnly = await createTemplate(h, org, {
        supportedLanguages: ['nl'],
        sections: [
          { id: 's', title: { nl: 'S' }, questions: [{ id: 'q', type: 'short_text', title: { nl: 'Q' } }] },
        ],
      });
    });

    const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
      ['no type', () => ({ customerId: contact, questionListIds: [template] }), 'type', /must be one of/],
      ['an unknown type', () => ({ type: 'survey', customerId: contact }), 'type', /must be one of/],
      [
        'a qlist without templates',
        () => ({ type: 'qlist', customerId: contact }),
        'questionListIds',
        /at least one template/,
      ],
      [
        'a qlist without contact',
        () => ({ type: 'qlist', questionListIds: [template] }),
        'customerId',
        /is required/,
      ],
      [
        'an inactive template',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [inactive] }),
        'questionListIds[0]',
        /not an active/,
      ],
      [
        'another organisation’s template',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [template, foreignTemplate] }),
        'questionListIds[1]',
        /not a question list of this organisation/,
      ],
      [
        'a repeated template',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [template, template] }),
        'questionListIds[1]',
        /repeats/,
      ],
      [
        'another organisation’s contact',
        () => ({ type: 'qlist', customerId: foreignContact, questionListIds: [template] }),
        'customerId',
        /not a contact of this organisation/,
      ],
      [
        'an e-mail invitation to a contact without e-mail',
        () => ({
          type: 'qlist',
          customerId: noEmail,
          questionListIds: [template],
          notificationEmail: { send: true },
        }),
        'notificationEmail.send',
        /no e-mail address/,
      ],
      [
        'an SMS to a contact without phone',
        () => ({
          type: 'qlist',
          customerId: noEmail,
          questionListIds: [template],
          notificationSms: { send: true },
        }),
        'notificationSms.send',
        /no phone number/,
      ],
      [
        'reminders without a channel',
        () => ({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          reminderSchedule: { reminder1Days: 3 },
        }),
        'reminderSchedule',
        /set notificationEmail.send/,
      ],
      [
        'a second reminder before the first',
        () => ({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          notificationEmail: { send: true },
          reminderSchedule: { reminder1Days: 5, reminder2Days: 3 },
        }),
        'reminderSchedule.reminder2Days',
        /after reminder1Days/,
      ],
      [
        'a negative reminder',
        () => ({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          notificationEmail: { send: true },
          reminderSchedule: { reminder1Days: -1 },
        }),
        'reminderSchedule.reminder1Days',
        /./,
      ],
      [
        'an expiry in the past',
        () => ({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          expiresAt: '2026-03-01T00:00:00Z',
        }),
        'expiresAt',
        /in the future/,
      ],
      [
        'an expiry that is no date',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [template], expiresAt: 'tomorrow' }),
        'expiresAt',
        /ISO 8601/,
      ],
      [
        'a language a template lacks',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [template, nlOnly], language: 'fr' }),
        'language',
        /share: nl/,
      ],
      [
        'a quicksign with templates',
        () => ({
          type: 'quicksign',
          customerId: contact,
          questionListIds: [template],
          document: { fileId: contract, title: 't' },
        }),
        'questionListIds',
        /no questionnaire/,
      ],
      [
        'a quicksign without document',
        () => ({ type: 'quicksign', customerId: contact }),
        'document',
        /is required/,
      ],
      [
        'a campaign bound to a contact',
        () => ({ type: 'campaign', customerId: contact, questionListIds: [template] }),
        'customerId',
        /not bound to a contact/,
      ],
      [
        'a campaign with an e-mail invitation',
        () => ({ type: 'campaign', questionListIds: [template], notificationEmail: { send: true } }),
        'notificationEmail.send',
        /no contact to invite/,
      ],
      [
        'an unknown field',
        () => ({ type: 'qlist', customerId: contact, questionListIds: [template], colour: 'red' }),
        'colour',
        /not a known field/,
      ],
      [
        'send that is no boolean',
        () => ({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          notificationEmail: { send: 'yes' },
        }),
        'notificationEmail.send',
        /must be true or false, not a string/,
      ],
    ];
    it.each(cases)('%s', async (_, body, field, message) => {
      const before = await countActions(org);
      const res = await create(body());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, status: 400 });
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(res.body.error).toMatch(message);
      expect(await countActions(org)).toBe(before);
    });
  });

  it.each([
    ['an unknown file', () => unknownId],
    ['a malformed file id', () => 'f-123'],
    ['another organisation’s file', () => foreignFile],
  ])(
    'when a quicksign names %s, then 400 names document.fileId, and nothing is stored or queued',
    async (_, fileId) => {
      const before = { actions: await countActions(org), jobs: await countJobs(org) };
      const res = await create({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: fileId(), title: 'Contract' },
        notificationEmail: { send: true },
        reminderSchedule: { reminder1Days: 3 },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        status: 400,
        error: 'document.fileId: is not a file of this organisation',
        details: [{ field: 'document.fileId', in: 'body', message: 'is not a file of this organisation' }],
      });
      expect({ actions: await countActions(org), jobs: await countJobs(org) }).toEqual(before);
      // The other organisation's file is untouched and still theirs.
      expect(
        (await h.api().get(`/api/v1/files/${foreignFile}`).set('x-api-key', other.adminKey)).status,
      ).toBe(200);
    },
  );

  it('when a quicksign names a file of the organisation with an invitation, then it is created and the e-mail queued', async () => {
    const before = await countJobs(org);
    const res = await create({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: contract, title: 'Contract' },
      notificationEmail: { send: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'sent', document: { fileId: contract, title: 'Contract' } });
    // The signer's invitation, and the drawing of the document's pages ahead of the signer.
    expect(await countJobs(org)).toBe(before + 2);
    const [kinds] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ kinds: string[] }>(
        tx,
        sql`SELECT array_agg(kind ORDER BY kind) AS kinds FROM jobs WHERE subject_id = ${res.body._id}`,
      ),
    );
    expect(kinds?.kinds).toEqual(['file-pages', 'notification']);
  });

  it.each([
    ['pdf', 'pdf'],
    ['Mandaat', 'Mandaat'],
    ['  volmacht voor de bank  ', 'volmacht voor de bank'],
  ])(
    'when a quicksign document has the type %j, which the spec does not list, then it is kept and shown as sent',
    async (sent, kept) => {
      const res = await create({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: contract, title: 'Contract', type: sent },
      });
      expect(res.status).toBe(201);
      const body = SessionRequestDetail.parse(res.body);
      expect(body.document).toEqual({ fileId: contract, title: 'Contract', type: kept });
      expect(SessionRequestDetail.parse((await get(body._id)).body).document).toEqual(body.document);
      const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
        queryRows<{ document: unknown }>(
          tx,
          sql`SELECT document FROM session_requests WHERE id = ${body._id}`,
        ),
      );
      expect(row?.document).toEqual({ fileId: contract, title: 'Contract', type: kept });
    },
  );

  it('when a quicksign document has no type, then the answer shows type null', async () => {
    const res = await create({
      type: 'quicksign',
      customerId: contact,
      document: { fileId: contract, title: 'C' },
    });
    expect(res.status).toBe(201);
    expect(SessionRequestDetail.parse(res.body).document).toEqual({
      fileId: contract,
      title: 'C',
      type: null,
    });
  });

  it.each([
    ['empty', '   ', 'must not be empty'],
    ['longer than 100 characters', 'x'.repeat(101), 'must have at most 100 characters'],
    ['not a string', 7, 'must be a string, not a number'],
  ])(
    'when a document type is %s, then 400 names document.type and nothing is stored',
    async (_, type, message) => {
      const before = await countActions(org);
      const res = await create({
        type: 'quicksign',
        customerId: contact,
        document: { fileId: contract, title: 'Contract', type },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        status: 400,
        details: [{ field: 'document.type', in: 'body', message }],
      });
      expect(await countActions(org)).toBe(before);
    },
  );

  it('when the OpenAPI document is read, then document.type is any short text, with the usual kinds as examples', async () => {
    const doc = (await h.api().get('/api/v1/openapi.json')).body;
    const type = doc.components.schemas.CreateSessionRequest.properties.document.properties.type;
    expect(type).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 100,
      examples: ['contract', 'mandate', 'offer', 'form', 'other'],
    });
    expect(type.enum).toBeUndefined();
    expect(doc.components.schemas.CreateSessionRequest.properties.document.required).toEqual([
      'fileId',
      'title',
    ]);
  });

  describe('when one request breaks several rules, then one 400 names every problem and nothing is stored', () => {
    const cases: [string, () => Record<string, unknown>, { field: string; message: string }[]][] = [
      [
        'a qlist with signing and campaign fields',
        () => ({
          type: 'qlist',
          customerIds: [contact],
          questionListIds: [template],
          signingOrder: 'sequential',
          portfolioId: org.portfolioId,
          signatureLevel: 'simple',
          document: { fileId: contract, title: 'Contract' },
          notificationEmail: { send: true },
        }),
        [
          {
            field: 'customerIds',
            message:
              'several contacts sign only in signing actions (quicksign, multisigning): use customerId',
          },
          { field: 'signingOrder', message: 'is only for signing actions (quicksign, multisigning)' },
          { field: 'portfolioId', message: 'is only for campaigns (where visitors become contacts)' },
          { field: 'signatureLevel', message: 'is only for signing actions (quicksign, multisigning)' },
          { field: 'document', message: 'is only for quicksign actions' },
        ],
      ],
      [
        'a campaign bound to a contact, with invitations and no template',
        () => ({
          type: 'campaign',
          customerId: contact,
          notificationEmail: { send: true },
          notificationSms: { send: true },
          reminderSchedule: { reminder1Days: 2 },
        }),
        [
          { field: 'customerId', message: 'a campaign link is not bound to a contact: leave customerId out' },
          {
            field: 'notificationEmail.send',
            message: 'a campaign has no contact to invite: share its url instead',
          },
          {
            field: 'notificationSms.send',
            message: 'a campaign has no contact to invite: share its url instead',
          },
          { field: 'questionListIds', message: 'needs at least one template for campaign' },
        ],
      ],
      [
        'a quicksign with templates, no document and an expiry in the past',
        () => ({
          type: 'quicksign',
          customerId: contact,
          questionListIds: [template],
          expiresAt: '2026-03-01T00:00:00Z',
        }),
        [
          { field: 'questionListIds', message: 'a quicksign action has no questionnaire: leave it out' },
          { field: 'document', message: 'is required for a quicksign action' },
          { field: 'expiresAt', message: 'must be in the future' },
        ],
      ],
      [
        'a multisigning without contact, repeating a template twice',
        () => ({ type: 'multisigning', questionListIds: [template, template, template] }),
        [
          { field: 'customerId', message: 'is required for a multisigning action' },
          { field: 'questionListIds[1]', message: 'repeats a template' },
          { field: 'questionListIds[2]', message: 'repeats a template' },
        ],
      ],
    ];
    it.each(cases)('%s', async (_, body, problems) => {
      const before = { actions: await countActions(org), jobs: await countJobs(org) };
      const res = await create(body());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        status: 400,
        error: `Invalid body: ${problems
          .slice(0, 5)
          .map((p) => `${p.field}: ${p.message}`)
          .join('; ')}`,
        details: problems.map((p) => ({ ...p, in: 'body' })),
        requestId: expect.any(String),
      });
      expect({ actions: await countActions(org), jobs: await countJobs(org) }).toEqual(before);
    });
  });

  it('when the contact, a template and the document are all wrong, then one 400 names each and nothing is stored', async () => {
    const mute = await createContact(h, org, { Voornaam: 'Mute' });
    const inactive = await createTemplate(h, org, { active: false });
    const broken = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', Buffer.from('%PDF-1.4\nnot really a pdf\n%%EOF\n'), 'broken.pdf');
    expect(broken.status).toBe(201);
    const before = { actions: await countActions(org), jobs: await countJobs(org) };
    const qlist = await create({
      type: 'qlist',
      customerId: mute,
      questionListIds: [template, unknownId, inactive],
      notificationEmail: { send: true },
      notificationSms: { send: true },
    });
    expect(qlist.status).toBe(400);
    expect(qlist.body.details).toEqual([
      {
        field: 'notificationEmail.send',
        in: 'body',
        message: 'the contact has no e-mail address (data.Email)',
      },
      {
        field: 'notificationSms.send',
        in: 'body',
        message: 'the contact has no phone number (data.Telefoon)',
      },
      { field: 'questionListIds[1]', in: 'body', message: 'is not a question list of this organisation' },
      { field: 'questionListIds[2]', in: 'body', message: 'is not an active question list' },
    ]);
    const quicksign = await create({
      type: 'quicksign',
      customerId: unknownId,
      document: { fileId: broken.body._id, title: 'Broken' },
    });
    expect(quicksign.status).toBe(400);
    expect(quicksign.body).toMatchObject({
      success: false,
      status: 400,
      error: expect.stringMatching(
        /^Invalid body: customerId: is not a contact of this organisation; document\.fileId: .*can be read/,
      ),
      details: [
        { field: 'customerId', in: 'body', message: 'is not a contact of this organisation' },
        { field: 'document.fileId', in: 'body', message: expect.stringContaining('can be read') },
      ],
    });
    expect({ actions: await countActions(org), jobs: await countJobs(org) }).toEqual(before);
  });

  it('when a read-only user creates one, then 403; without a key, 401', async () => {
    const reader = await createUserWithKey(h, org, ['read-only']);
    const res = await action.call(null, {}).set('x-api-key', reader.key);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403 });
    const anonymous = await h.api().post('/api/v1/sessionrequests').send({ type: 'qlist' });
    expect(anonymous.status).toBe(401);
  });
});

describe('authentication', () => {
  it.each([
    ['post', '/api/v1/sessionrequests'],
    ['get', '/api/v1/sessionrequests'],
    ['get', `/api/v1/sessionrequests/${unknownId}`],
    ['post', `/api/v1/sessionrequests/${unknownId}/reopen`],
    ['post', `/api/v1/sessionrequests/${unknownId}/deactivate`],
    ['get', '/api/v1/questionlists'],
  ] as const)(
    'when %s %s has no key or a wrong one, then 401 in the auth error shape',
    async (method, url) => {
      for (const key of [undefined, 'adk_wrong']) {
        const req = h.api()[method](url);
        const res = await (key ? req.set('x-api-key', key) : req);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, code: 401, error: expect.any(String) });
      }
    },
  );
});

describe('lifecycle', () => {
  it('when the contact opens, completes, the adviser reopens and the contact completes again, then every step is recorded', async () => {
    const { body } = await action({ notificationEmail: { send: true } });
    h.clock.advance(60_000);
    const page = await visit(body.code);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Kantoor Peeters');
    expect(await statusOf(body._id)).toBe('opened');
    h.clock.advance(60_000);
    await complete(body._id);
    expect(await statusOf(body._id)).toBe('completed');
    const reopened = await reopen(body._id);
    expect(reopened.status).toBe(200);
    expect(SessionRequestDetail.parse(reopened.body)).toMatchObject({
      status: 'reopened',
      completedAt: null,
    });
    // Reopening sends nothing unless asked: still only the invitation.
    expect(reopened.body.notifications.map((n: { purpose: string }) => n.purpose)).toEqual(['invitation']);
    h.clock.advance(60_000);
    await complete(body._id);
    const final = SessionRequestDetail.parse((await get(body._id)).body);
    expect(final.status).toBe('completed');
    expect(final.history.map((e) => [e.from, e.to, e.actor])).toEqual([
      [null, 'sent', 'user'],
      ['sent', 'opened', 'contact'],
      ['opened', 'completed', 'contact'],
      ['completed', 'reopened', 'user'],
      ['reopened', 'completed', 'contact'],
    ]);
    expect(final.history[3]).toMatchObject({ userId: org.adminId, at: '2026-03-02T09:02:00.000Z' });
  });

  it('when an action is deactivated, then its link answers 410 at once, naming no one, and further transitions are 409', async () => {
    const { body } = await action({ notificationEmail: { send: true } });
    const res = await deactivate(body._id);
    expect(res.status).toBe(200);
    expect(SessionRequestDetail.parse(res.body)).toMatchObject({
      status: 'deactivated',
      closedAt: h.clock.now().toISOString(),
    });
    // The pending invitation is not sent any more.
    expect(res.body.notifications).toEqual([
      expect.objectContaining({ status: 'cancelled', lastError: 'action deactivated' }),
    ]);
    const page = await visit(body.code);
    expect(page.status).toBe(410);
    expect(page.text).not.toContain('Kantoor Peeters');
    for (const again of [await deactivate(body._id), await reopen(body._id)]) {
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        success: false,
        status: 409,
        details: [{ field: 'status', in: 'state', message: 'is deactivated', value: 'deactivated' }],
      });
    }
    await expect(complete(body._id)).rejects.toMatchObject({ status: 409 });
  });

  it.each([
    ['created', async () => undefined],
    ['sent', async () => undefined],
    [
      'opened',
      async (_id: string, code: string) => {
        await visit(code);
      },
    ],
    [
      'completed',
      async (id: string) => {
        await complete(id);
      },
    ],
    [
      'reopened',
      async (id: string) => {
        await complete(id);
        await reopen(id);
      },
    ],
  ])(
    'when the action is %s, then reopen and deactivate are allowed exactly as the lifecycle says',
    async (state, reach) => {
      const make = async () => {
        const { body } = await action(state === 'created' ? {} : { notificationEmail: { send: true } });
        await reach(body._id, body.code);
        expect(await statusOf(body._id)).toBe(state);
        return body._id as string;
      };
      const reopenAllowed = state === 'completed';
      const deactivateAllowed = state !== 'completed';
      const r = await reopen(await make());
      expect({ state, reopen: r.status }).toEqual({ state, reopen: reopenAllowed ? 200 : 409 });
      if (!reopenAllowed)
        expect(r.body.details).toEqual([
          { field: 'status', in: 'state', message: `is ${state}`, value: state },
        ]);
      const d = await deactivate(await make());
      expect({ state, deactivate: d.status }).toEqual({ state, deactivate: deactivateAllowed ? 200 : 409 });
      if (!deactivateAllowed) expect(d.body.error).toMatch(/Cannot deactivate an action that is completed/);
    },
  );

  it('when the expiry passes, then the expiry job expires it, cancels its reminders and the link answers 410', async () => {
    const { body } = await action({
      notificationEmail: { send: true },
      reminderSchedule: { reminder1Days: 3 },
      expiresAt: '2026-03-04T09:00:00Z',
    });
    await h.jobs.drain(); // the invitation (to the outbox)
    h.clock.set('2026-03-04T09:00:01Z');
    await h.jobs.drain();
    const after = SessionRequestDetail.parse((await get(body._id)).body);
    expect(after.status).toBe('expired');
    expect(after.closedAt).toBe('2026-03-04T09:00:01.000Z');
    expect(after.history.at(-1)).toMatchObject({
      from: 'sent',
      to: 'expired',
      actor: 'system',
      userId: null,
    });
    expect(after.notifications.map((n) => [n.purpose, n.status])).toEqual([
      ['invitation', 'sent'],
      ['reminder1', 'cancelled'],
    ]);
    expect((await visit(body.code)).status).toBe(410);
    expect((await deactivate(body._id)).body.details).toEqual([
      { field: 'status', in: 'state', message: 'is expired', value: 'expired' },
    ]);
    h.clock.set('2026-03-02T09:00:00.000Z');
  });

  it('when the link is visited after the expiry but before the job ran, then it is already gone', async () => {
    const { body } = await action({ expiresAt: '2026-03-03T09:00:00Z' });
    h.clock.set('2026-03-03T10:00:00Z');
    expect((await visit(body.code)).status).toBe(410);
    expect(await statusOf(body._id)).toBe('expired');
    h.clock.set('2026-03-02T09:00:00.000Z');
  });

  it('when a completed action with a past expiry is reopened, then a new expiresAt is required', async () => {
    const { body } = await action({ expiresAt: '2026-03-03T09:00:00Z' });
    await complete(body._id);
    h.clock.set('2026-03-05T09:00:00Z');
    const refused = await reopen(body._id);
    expect(refused.status).toBe(400);
    expect(refused.body.details[0]).toMatchObject({ field: 'expiresAt' });
    const ok = await reopen(body._id, { expiresAt: '2026-03-10T09:00:00Z' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'reopened', expiresAt: '2026-03-10T09:00:00.000Z' });
    h.clock.set('2026-03-02T09:00:00.000Z');
  });

  it('when ten reopen calls race, then exactly one wins and the others get 409 with the current status', async () => {
    const { body } = await action();
    await complete(body._id);
    const results = await Promise.all(Array.from({ length: 10 }, () => reopen(body._id)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.details).toEqual([
        { field: 'status', in: 'state', message: 'is reopened', value: 'reopened' },
      ]);
    const history = (await get(body._id)).body.history.filter((e: { to: string }) => e.to === 'reopened');
    expect(history).toHaveLength(1);
  });

  it('when ten deactivate calls race, then exactly one wins', async () => {
    const { body } = await action();
    const results = await Promise.all(Array.from({ length: 10 }, () => deactivate(body._id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
  });

  it('when another organisation or a read-only user acts on it, then 404 or 403 and nothing changes', async () => {
    const { body } = await action();
    for (const res of [
      await get(body._id, other.adminKey),
      await deactivate(body._id, other.adminKey),
      await reopen(body._id, undefined, other.adminKey),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, status: 404, error: 'Session request not found' });
    }
    const reader = await createUserWithKey(h, org, ['read-only']);
    expect((await deactivate(body._id, reader.key)).status).toBe(403);
    expect((await get(body._id, reader.key)).status).toBe(200);
    expect(await statusOf(body._id)).toBe('created');
    for (const id of [unknownId, 'nope']) expect((await get(id)).status).toBe(404);
  });
});

describe('outbox (no SMTP_URL, no SMS_PROVIDER_URL)', () => {
  it('when invitations are sent without a mail server or SMS provider, then they are written to DATA_DIR/outbox and logged', async () => {
    const { body } = await action({ notificationEmail: { send: true }, notificationSms: { send: true } });
    await h.jobs.drain();
    const dir = path.join(h.dataDir, 'outbox');
    const files = fs.readdirSync(dir);
    const eml = files
      .filter((f) => f.endsWith('.eml'))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    const json = files
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    const mail = eml.find((m) => m.includes(body.code));
    expect(mail).toMatch(/^To: an@example\.test$/m);
    expect(json.find((m) => m.text.includes(body.code))).toMatchObject({
      to: '+32470000001',
      from: 'ActionDesk',
    });
    expect(
      h.logs.some(
        (l) => l.msg === 'e-mail written to the outbox (no SMTP_URL)' && l.to === 'an@example.test',
      ),
    ).toBe(true);
    expect((await get(body._id)).body.notifications.map((n: { status: string }) => n.status)).toEqual([
      'sent',
      'sent',
    ]);
  });
});

describe('public link', () => {
  it('when the code is unknown, malformed or retyped loosely, then unknown ones are 404 naming no organisation and a retyped one works', async () => {
    const unknown = await visit('0123456789abcdefghjk');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Unknown link');
    expect((await visit('short')).status).toBe(404);
    const { body } = await action();
    const typed = body.code
      .toUpperCase()
      .replace(/(.{5})/g, '$1-')
      .replace(/-$/, '');
    const res = await visit(typed);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await statusOf(body._id)).toBe('opened');
  });

  it('when a link checker only asks HEAD, then the action is not marked opened', async () => {
    const { body } = await action({ notificationEmail: { send: true } });
    const res = await h.api().head(`/action/${body.code}`);
    expect(res.status).toBe(200);
    expect(await statusOf(body._id)).toBe('sent');
  });
});

describe('GET /api/v1/sessionrequests', () => {
  it('when filtered by status, contact, type and updatedSince, then only matching actions of the organisation come back', async () => {
    const second = await createContact(h, org, { Voornaam: 'Bo', Email: 'bo@example.test' });
    h.clock.set('2026-04-01T09:00:00Z');
    const a = (await action({ customerId: second })).body;
    h.clock.set('2026-04-01T10:00:00Z');
    const b = (await action({ customerId: second, notificationEmail: { send: true } })).body;
    h.clock.set('2026-04-01T11:00:00Z');
    await deactivate(a._id);
    await create(
      {
        type: 'qlist',
        customerId: await createContact(h, other, { Voornaam: 'Z' }),
        questionListIds: [await createTemplate(h, other)],
      },
      other.adminKey,
    );

    const list = async (q: string) => {
      const res = await h.api().get(`/api/v1/sessionrequests?${q}`).set('x-api-key', org.adminKey);
      expect(res.status).toBe(200);
      return SessionRequestList.parse(res.body);
    };
    const byContact = await list(`customerId=${second}`);
    expect(byContact.sessionRequests.map((s) => s._id)).toEqual([b._id, a._id]);
    expect(byContact.total).toBe(2);
    expect((await list(`customerId=${second}&status=sent`)).sessionRequests.map((s) => s._id)).toEqual([
      b._id,
    ]);
    // Oldest change first: b changed at 10:00, a at 11:00.
    await untilSettled(h, org.organisationId);
    const changed = await list('updatedSince=2026-04-01T09:30:00Z');
    expect(changed.sessionRequests.map((s) => s._id)).toEqual([b._id, a._id]);
    const page = await list(`customerId=${second}&limit=1&page=2`);
    expect(page).toMatchObject({ total: 2, sessionRequests: [{ _id: a._id }] });
    expect((await list('type=campaign')).sessionRequests.every((s) => s.type === 'campaign')).toBe(true);
    const all = await list('limit=100');
    expect(all.sessionRequests.every((s) => s.customerId !== null || s.type === 'campaign')).toBe(true);
    expect(all.total).toBe(await countActions(org));
    const bad = await h
      .api()
      .get('/api/v1/sessionrequests?status=done&customerId=x')
      .set('x-api-key', org.adminKey);
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['status']);
    h.clock.set('2026-03-02T09:00:00.000Z');
  });
});
