import { sql } from 'drizzle-orm';
import { SessionRequestDetail } from '../src/modules/sessionrequests/sessionrequests.schemas';
import { queryRows } from '../src/platform/db/database';
import { claimedJob } from '../src/platform/jobs/job';
import { beginSending, LeaseLostError, messageKey } from '../src/platform/jobs/sending';
import { createLogger } from '../src/platform/ops/logger';
import { createMailer } from '../src/platform/outbound/mail';
import {
  completeAsContact,
  createContact,
  createOrg,
  createTemplate,
  createUserWithKey,
  setNotices,
  type TestOrg,
  tenantRows,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { linksIn, startHttpReceiver, startSmtpServer } from './support/peers';

const DAY = 86_400_000;
let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startHttpReceiver>>;
let org: TestOrg;
let template: string;
let contact: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  sms = await startHttpReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kantoor Peeters <desk@peeters.test>',
    SMS_PROVIDER_URL: sms.url,
    SMS_PROVIDER_TOKEN: 'sms-secret',
    BASE_URL: 'https://desk.example.test',
    TIME_ZONE: 'Europe/Brussels',
  });
  org = await createOrg(h, 'Kantoor Peeters');
  // The tests count the contact's mail: the administrator who sends the actions asks for no notices.
  await setNotices(h, org, org.adminId, 'none');
  template = await createTemplate(h, org, { name: 'Intake 2026' });
  contact = await createContact(h, org, {
    Voornaam: 'Marie',
    Email: 'marie@example.test',
    Telefoon: '+32470111222',
  });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await sms.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  sms.received.length = 0;
  h.clock.set('2026-03-02T09:00:00.000Z');
});

const create = (body: Record<string, unknown> = {}) =>
  h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: contact, questionListIds: [template], ...body });
/** Claims the due job as another worker would (its lease for 120 s), without running it. */
async function claimAs(worker: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    h.database.db,
    sql`SELECT * FROM actiondesk_claim_jobs(${h.clock.now().toISOString()}::timestamptz, 10, 120, ${worker}::text)`,
  );
  expect(row).toBeDefined();
  return claimedJob(row!);
}

/** The action's jobs, oldest first. */
const jobsOf = (actionId: string) =>
  tenantRows<{ id: string }>(
    h,
    org.organisationId,
    sql`SELECT id FROM jobs WHERE subject_id = ${actionId}::uuid AND kind = 'notification' ORDER BY id`,
  );
const detail = async (id: string) =>
  SessionRequestDetail.parse(
    (await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey)).body,
  );

describe('invitations', () => {
  it('when an e-mail invitation is asked, then the answer does not wait for it and the SMTP server then receives it, with the link', async () => {
    const res = await create({ notificationEmail: { send: true }, message: 'Tot binnenkort!' });
    expect(res.status).toBe(201);
    expect(res.body.notifications[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(smtp.received).toHaveLength(0);

    expect(await h.jobs.drain()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['marie@example.test']);
    expect(mail.from).toBe('desk@peeters.test');
    expect(mail.subject).toBe('Kantoor Peeters vraagt u «Intake 2026» in te vullen');
    expect(mail.text).toContain(`https://desk.example.test/action/${res.body.code}`);
    expect(mail.text).toContain('Beste Marie,');
    expect(mail.text).toContain('Tot binnenkort!');
    expect(mail.html).toContain(`href="https://desk.example.test/action/${res.body.code}"`);
    const [job] = await jobsOf(res.body._id);
    expect(mail.messageId).toBe(`<job-${job!.id}@peeters.test>`);
    const after = await detail(res.body._id);
    expect(after.notifications).toEqual([
      expect.objectContaining({
        channel: 'email',
        status: 'sent',
        attempts: 1,
        sends: 1,
        lastError: null,
        sentAt: '2026-03-02T09:00:00.000Z',
      }),
    ]);
  });

  it('when a person makes the action, then the invitation names them; when an integration’s service account does, then it names the organisation only', async () => {
    const person = await createUserWithKey(h, org, ['adviser']);
    const service = await createUserWithKey(h, org, ['adviser'], 'service');
    for (const key of [person.key, service.key]) {
      const res = await h
        .api()
        .post('/api/v1/sessionrequests')
        .set('x-api-key', key)
        .send({
          type: 'qlist',
          customerId: contact,
          questionListIds: [template],
          notificationEmail: { send: true },
        });
      expect(res.status).toBe(201);
    }
    await h.jobs.drain();
    // The two messages are sent side by side: their order is not fixed.
    const leads = smtp.received.map((m) => m.text.split('\n\n')[1]).sort();
    expect(leads).toEqual([
      'Kantoor Peeters vraagt u «Intake 2026» in te vullen.',
      'Test user (Kantoor Peeters) vraagt u «Intake 2026» in te vullen.',
    ]);
  });

  it('when an adviser’s invitation with an expiry is mailed, then it reads as the product: a text and an HTML part, the organisation on top, the questionnaire by name, one button to the link, the expiry in local time after it, the adviser in the signature', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const res = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', adviser.key)
      .send({
        type: 'qlist',
        customerId: contact,
        questionListIds: [template],
        expiresAt: '2026-03-20T17:00:00Z',
        notificationEmail: { send: true },
      });
    expect(res.status).toBe(201);
    await h.jobs.drain();
    const mail = smtp.received[0]!;
    const url = `https://desk.example.test/action/${res.body.code}`;
    expect(mail.contentType).toBe('multipart/alternative');
    const lead = 'Test user (Kantoor Peeters) vraagt u «Intake 2026» in te vullen.';
    const expiry = 'De link is geldig tot 20 maart 2026 om 18:00.'; // 17:00 UTC, in Brussels
    // The HTML: the organisation on top, the lead as the preview, then one button, then the expiry.
    expect(mail.html).toMatch(/<td style="[^"]*font-weight:700[^"]*">Kantoor Peeters<\/td>/);
    expect(mail.html).toContain(`<div style="display:none;max-height:0;overflow:hidden">${lead}</div>`);
    expect(linksIn(mail.html)).toEqual([url]);
    expect(mail.html).toContain('>Vragenlijst openen</a>');
    expect(mail.html.indexOf(expiry)).toBeGreaterThan(mail.html.indexOf(`href="${url}"`));
    expect(mail.html).toContain('Met vriendelijke groeten,<br>Test user<br>Kantoor Peeters');
    // The text part says the same, the link written out.
    expect(mail.text).toBe(
      [
        'Beste Marie,',
        lead,
        `Vragenlijst openen:\n${url}`,
        expiry,
        'Met vriendelijke groeten,\nTest user\nKantoor Peeters',
      ].join('\n\n'),
    );
  });

  it('when the action is in French with an expiry, then the message is French and names the expiry', async () => {
    await create({ notificationEmail: { send: true }, language: 'fr', expiresAt: '2026-03-20T17:00:00Z' });
    await h.jobs.drain();
    expect(smtp.received[0]?.subject).toBe('Kantoor Peeters vous invite à compléter « Intake 2026 »');
    expect(smtp.received[0]?.text).toContain('Le lien est valable jusqu’au 20 mars 2026 à 18:00.');
    // « inviter à » (never « invite de »)
    expect(smtp.received[0]?.text).toContain('vous invite à compléter « Intake 2026 ».');
  });

  it('when an SMS invitation is asked, then the provider receives it with the token, the number and the link', async () => {
    const res = await create({ notificationSms: { send: true } });
    await h.jobs.drain();
    expect(sms.received).toHaveLength(1);
    const request = sms.received[0]!;
    expect(request.headers.authorization).toBe('Bearer sms-secret');
    const [job] = await jobsOf(res.body._id);
    expect(request.headers['idempotency-key']).toBe(`job-${job!.id}`);
    expect(request.body).toEqual({
      to: '+32470111222',
      from: 'ActionDesk',
      text: `Kantoor Peeters vraagt u een vragenlijst in te vullen: https://desk.example.test/action/${res.body.code}`,
    });
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({ channel: 'sms', status: 'sent' });
  });

  it.each([
    ['a Belgian number written locally', '0470 11 12 23', '+32470111223'],
    ['a Dutch number with its country code and punctuation', '+31 (6) 12-34-56-78', '+31612345678'],
    ['a Belgian number with 0032', '0032 470 11 12 24', '+32470111224'],
  ])('when the contact has %s, then the provider receives it in E.164', async (_what, typed, e164) => {
    const other = await createContact(h, org, { Voornaam: 'Jef', Telefoon: typed });
    const res = await create({ customerId: other, notificationSms: { send: true } });
    expect(res.status).toBe(201);
    await h.jobs.drain();
    expect(sms.received.map((r) => (r.body as { to: string }).to)).toEqual([e164]);
  });

  it('when the contact’s number is written as people write it, then it is kept as written and the SMS goes to it in E.164', async () => {
    const other = await createContact(h, org, { Voornaam: 'Jef', Telefoon: '0478 12 34 56 (gsm)' });
    const res = await create({ customerId: other, notificationSms: { send: true } });
    expect(res.status).toBe(201);
    expect(SessionRequestDetail.parse(res.body).notifications).toEqual([
      expect.objectContaining({ channel: 'sms', purpose: 'invitation', status: 'pending' }),
    ]);
    expect(await h.jobs.drain()).toBe(1);
    expect(sms.received.map((r) => (r.body as { to: string }).to)).toEqual(['+32478123456']);
    const contact = await h.api().get(`/api/v1/customers/${other}`).set('x-api-key', org.adminKey);
    expect(contact.body.data).toEqual({ Voornaam: 'Jef', Telefoon: '0478 12 34 56 (gsm)' });
  });

  it.each([
    ['too short', '12'],
    ['not a number of any region', '+999 123'],
    ['words without a number', 'bel via het kantoor'],
  ])(
    'when the contact’s phone number is %s, then an SMS action is refused naming notificationSms.send and nothing is stored',
    async (_what, typed) => {
      const other = await createContact(h, org, { Voornaam: 'Jef', Telefoon: typed });
      const before = await h
        .api()
        .get(`/api/v1/sessionrequests?customerId=${other}`)
        .set('x-api-key', org.adminKey);
      const res = await create({ customerId: other, notificationSms: { send: true } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        expect.objectContaining({
          field: 'notificationSms.send',
          in: 'body',
          message: expect.stringMatching(/cannot be read as a phone number/),
        }),
      ]);
      const after = await h
        .api()
        .get(`/api/v1/sessionrequests?customerId=${other}`)
        .set('x-api-key', org.adminKey);
      expect(after.body.total).toBe(before.body.total);
      expect(await h.jobs.drain()).toBe(0);
    },
  );

  it.each([
    ['a Belgian fixed line', '02 227 11 11', 'is a fixed line number, which cannot receive SMS'],
    ['a French fixed line', '+33 1 23 45 67 89', 'is a fixed line number, which cannot receive SMS'],
    ['a Belgian toll-free number', '0800 12 345', 'is a toll free number, which cannot receive SMS'],
  ])(
    'when the contact’s number is %s, then an SMS action is refused saying why, and an e-mail one is not',
    async (_what, typed, problem) => {
      const other = await createContact(h, org, {
        Voornaam: 'Jef',
        Telefoon: typed,
        Email: 'jef@example.test',
      });
      const res = await create({ customerId: other, notificationSms: { send: true } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        {
          field: 'notificationSms.send',
          in: 'body',
          message: `the contact’s phone number (data.Telefoon) ${problem}`,
        },
      ]);
      expect((await create({ customerId: other, notificationEmail: { send: true } })).status).toBe(201);
      expect(await h.jobs.drain()).toBe(1);
      expect(smtp.received.map((m) => m.to)).toEqual([['jef@example.test']]);
    },
  );

  it('when the SMTP server refuses the delivery, then it is retried after the backoff and the outcome is visible', async () => {
    smtp.refuseNext(1);
    const res = await create({ notificationEmail: { send: true } });
    await h.jobs.drain();
    expect(smtp.received).toHaveLength(0);
    const failed = (await detail(res.body._id)).notifications[0]!;
    expect(failed).toMatchObject({
      status: 'pending',
      attempts: 1,
      sends: 0, // the relay refused it: it certainly did not leave
      sentAt: null,
      scheduledFor: '2026-03-02T09:00:30.000Z',
    });
    expect(failed.lastError).toMatch(/451.*Mailbox busy/);

    expect(await h.jobs.drain()).toBe(0); // not due before the backoff
    h.clock.advance(30_000);
    expect(await h.jobs.drain()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      sends: 1,
      lastError: null,
      sentAt: '2026-03-02T09:00:30.000Z',
    });
  });

  it('when the SMS provider answers 503 twice, then the third attempt delivers it', async () => {
    sms.answer(503, 503);
    const res = await create({ notificationSms: { send: true } });
    await h.jobs.drain();
    h.clock.advance(30_000);
    await h.jobs.drain();
    const second = (await detail(res.body._id)).notifications[0]!;
    expect(second).toMatchObject({
      status: 'pending',
      attempts: 2,
      scheduledFor: '2026-03-02T09:01:30.000Z',
    });
    expect(second.lastError).toMatch(/SMS provider answered 503/);
    h.clock.advance(60_000);
    await h.jobs.drain();
    expect(sms.received).toHaveLength(1);
    // Two refusals and one delivery: one send that may have gone, every request with the same key.
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({
      status: 'sent',
      attempts: 3,
      sends: 1,
    });
  });

  it('when the contact lost the e-mail address before sending, then the notification fails at once without retrying', async () => {
    const bare = await createContact(h, org, { Voornaam: 'Jo', Email: 'jo@example.test' });
    const res = await create({ customerId: bare, notificationEmail: { send: true } });
    await h
      .api()
      .patch(`/api/v1/customers/${bare}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Email: null } });
    await h.jobs.drain();
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'the contact has no e-mail address (data.Email)',
    });
    h.clock.advance(DAY);
    expect(await h.jobs.drain()).toBe(0);
  });

  it('when a worker dies holding a job, then another worker sends it once the lease ends', async () => {
    const res = await create({ notificationEmail: { send: true } });
    // A worker claims the job and dies before sending or recording anything.
    await claimAs('a crashed worker');
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({ status: 'sending', attempts: 1 });
    expect(await h.jobs.drain()).toBe(0); // leased: nobody else takes it
    h.clock.advance(120_000);
    expect(await h.jobs.drain()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      sends: 1, // the dead worker never began sending
    });
  });

  it('when a worker dies after sending, before recording it, then the retry sends again on purpose, with the same Message-ID, and the notification shows both sends', async () => {
    const res = await create({ notificationEmail: { send: true } });
    const claimed = await claimAs('a crashed worker');
    // What the crashed worker did before it died: it recorded the send, and the message left.
    expect(await beginSending(h, claimed)).toBe(0);
    const mailer = createMailer(
      { kind: 'smtp', url: smtp.url, from: 'Kantoor Peeters <desk@peeters.test>' } as never,
      createLogger('silent'),
    );
    await mailer.send({
      key: messageKey(claimed),
      to: 'marie@example.test',
      subject: 'first copy',
      text: 'x',
      html: 'x',
    });
    mailer.close();
    h.clock.advance(120_000);
    expect(await h.jobs.drain()).toBe(1);
    expect(smtp.received.map((m) => m.subject)).toEqual([
      'first copy',
      expect.stringContaining('Kantoor Peeters'),
    ]);
    expect(smtp.received[1]!.messageId).toBe(smtp.received[0]!.messageId);
    expect(smtp.received[0]!.messageId).toBe(`<job-${claimed.id}@peeters.test>`);
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      sends: 2,
    });
  });

  it('when a worker lost its lease before sending, then beginSending refuses it (nothing is counted), and the holder of the lease sends', async () => {
    const res = await create({ notificationEmail: { send: true } });
    // Another worker holds the job now: this one's lease token is no longer the job's.
    const job = { ...(await claimAs('a slow worker')), leaseToken: '01900000-0000-7000-8000-000000000000' };
    await expect(beginSending(h, job)).rejects.toThrow(LeaseLostError);
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({ sends: 0 });
    // Once the slow worker's lease ends, the message is sent by the worker that holds it then.
    h.clock.advance(120_000);
    expect(await h.jobs.drain()).toBe(1);
    expect((await detail(res.body._id)).notifications[0]).toMatchObject({ status: 'sent', sends: 1 });
  });

  it('when the worker runs by itself, then a new action’s e-mail arrives without anyone draining the queue', async () => {
    h.jobs.start();
    try {
      const res = await create({ notificationEmail: { send: true } });
      await smtp.waitFor(1);
      expect(smtp.received[0]?.text).toContain(res.body.code);
    } finally {
      await h.jobs.stop();
    }
  });
});

describe('reminders', () => {
  it('when reminders are scheduled, then each is sent that many days after the invitation, by every channel asked', async () => {
    const res = await create({
      notificationEmail: { send: true },
      notificationSms: { send: true },
      reminderSchedule: { reminder1Days: 2, reminder2Days: 5 },
    });
    await h.jobs.drain();
    expect(smtp.received.map((m) => m.subject)).toEqual([
      'Kantoor Peeters vraagt u «Intake 2026» in te vullen',
    ]);
    h.clock.advance(2 * DAY - 1000);
    expect(await h.jobs.drain()).toBe(0);
    h.clock.advance(1000);
    await h.jobs.drain();
    expect(smtp.received.map((m) => m.subject).at(-1)).toBe(
      'Herinnering: Kantoor Peeters vraagt u nog «Intake 2026» in te vullen',
    );
    expect(sms.received).toHaveLength(2);
    h.clock.advance(3 * DAY);
    await h.jobs.drain();
    expect(smtp.received.map((m) => m.subject).at(-1)).toBe(
      'Laatste herinnering: Kantoor Peeters vraagt u nog «Intake 2026» in te vullen',
    );
    expect(smtp.received).toHaveLength(3);
    expect(sms.received).toHaveLength(3);
    const notifications = (await detail(res.body._id)).notifications;
    expect(notifications.map((n) => [n.channel, n.purpose, n.status, n.scheduledFor])).toEqual([
      ['email', 'invitation', 'sent', '2026-03-02T09:00:00.000Z'],
      ['sms', 'invitation', 'sent', '2026-03-02T09:00:00.000Z'],
      ['email', 'reminder1', 'sent', '2026-03-04T09:00:00.000Z'],
      ['sms', 'reminder1', 'sent', '2026-03-04T09:00:00.000Z'],
      ['email', 'reminder2', 'sent', '2026-03-07T09:00:00.000Z'],
      ['sms', 'reminder2', 'sent', '2026-03-07T09:00:00.000Z'],
    ]);
  });

  it('when the action is completed before a reminder, then the reminders are cancelled and never sent', async () => {
    const res = await create({
      notificationEmail: { send: true },
      reminderSchedule: { reminder1Days: 2, reminder2Days: 4 },
    });
    await h.jobs.drain();
    await completeAsContact(h, org.organisationId, res.body._id);
    h.clock.advance(10 * DAY);
    expect(await h.jobs.drain()).toBe(0);
    expect(smtp.received).toHaveLength(1);
    const notifications = (await detail(res.body._id)).notifications;
    expect(notifications.map((n) => [n.purpose, n.status, n.lastError])).toEqual([
      ['invitation', 'sent', null],
      ['reminder1', 'cancelled', 'action completed'],
      ['reminder2', 'cancelled', 'action completed'],
    ]);
  });

  it('when the action is deactivated, then its reminders are cancelled', async () => {
    const res = await create({ notificationEmail: { send: true }, reminderSchedule: { reminder1Days: 1 } });
    await h.jobs.drain();
    await h.api().post(`/api/v1/sessionrequests/${res.body._id}/deactivate`).set('x-api-key', org.adminKey);
    h.clock.advance(2 * DAY);
    await h.jobs.drain();
    expect(smtp.received).toHaveLength(1);
    expect((await detail(res.body._id)).notifications[1]).toMatchObject({
      purpose: 'reminder1',
      status: 'cancelled',
    });
  });

  it('when a reopen asks for an e-mail and a reminder, then the contact gets the reopening message and later the reminder', async () => {
    const res = await create({ notificationEmail: { send: true } });
    await h.jobs.drain();
    await completeAsContact(h, org.organisationId, res.body._id);
    const reopened = await h
      .api()
      .post(`/api/v1/sessionrequests/${res.body._id}/reopen`)
      .set('x-api-key', org.adminKey)
      .send({ notificationEmail: { send: true }, reminderSchedule: { reminder1Days: 1 } });
    expect(reopened.status).toBe(200);
    await h.jobs.drain();
    expect(smtp.received.at(-1)?.subject).toBe('Kantoor Peeters heeft «Intake 2026» heropend');
    expect(smtp.received.at(-1)?.text).toContain(
      '(Kantoor Peeters) heeft «Intake 2026» heropend zodat u uw antwoorden kunt aanvullen of corrigeren.',
    );
    h.clock.advance(DAY);
    await h.jobs.drain();
    expect(smtp.received.at(-1)?.subject).toBe(
      'Herinnering: Kantoor Peeters vraagt u nog «Intake 2026» in te vullen',
    );
    expect(smtp.received).toHaveLength(3);
  });
});
