import { sql } from 'drizzle-orm';
import { defaultRetryDelayMs } from '../src/platform/jobs/job-type';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startHttpReceiver, startSmtpServer } from './support/peers';
import { createReportTemplate, submitAsContact } from './support/submissions';
import { until } from './support/until';

// The adviser's e-mails about the actions they sent (issue 30, item 3): one per event, a daily digest, or
// none, as each user chose; made in the transaction that records the event.

let h: Harness;
let org: TestOrg;
let template: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startHttpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  sms = await startHttpReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    SMS_PROVIDER_URL: sms.url,
    TIME_ZONE: 'Europe/Brussels',
    BASE_URL: 'http://desk.example.test',
  });
  org = await createOrg(h, 'Kantoor Janssens');
  template = await createReportTemplate(h, org);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await sms.close();
});

/** An adviser (or an integration's account) with their own key and their notice settings. */
async function adviser(
  notify: 'each' | 'digest' | 'none',
  language: 'nl' | 'fr' | 'en' | null,
  kind: 'staff' | 'service' = 'staff',
) {
  const made = await createUserWithKey(h, org, ['adviser'], kind);
  await h.database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.organisation_id', ${org.organisationId}, true)`);
    await tx.execute(
      sql`UPDATE users SET notify = ${notify}, language = ${language} WHERE id = ${made.userId}::uuid`,
    );
  });
  const user = await h.api().get(`/api/v1/admin/users/${made.userId}`).set('x-api-key', org.adminKey);
  return { ...made, email: user.body.email as string };
}

async function send(key: string, first: string, extra: object = {}) {
  const contact = await createContact(h, org, {
    Voornaam: first,
    Achternaam: 'Janssens',
    Email: `${first.toLowerCase()}@example.test`,
    Telefoon: '+32470111222',
  });
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', key)
    .send({ type: 'qlist', customerId: contact, questionListIds: [template], ...extra });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe('the adviser’s e-mails about their actions', () => {
  it('when an action an adviser sent completes, then they get one e-mail in their language with the way back to it; one who chose none gets nothing', async () => {
    const each = await adviser('each', 'nl');
    const none = await adviser('none', null);
    const mine = await send(each.key, 'Lotte');
    const theirs = await send(none.key, 'Pieter');
    await submitAsContact(h, mine.code, 'Lotte');
    await submitAsContact(h, theirs.code, 'Pieter');
    await h.jobs.drain();
    await until(() => mailsTo(each.email).length === 1);
    const mail = mailsTo(each.email)[0]!;
    expect(mail.subject).toMatch(/^Voltooid: Vragenlijst — Lotte Janssens$/);
    expect(mail.text).toContain('Lotte Janssens voltooide ‘Vragenlijst’.');
    expect(mail.text).toMatch(new RegExp(`De actie openen:\\nhttps?://[^/]+/staff/actions/${mine._id}`));
    expect(mail.html).toContain('<html lang="nl">');
    expect(mailsTo(none.email)).toEqual([]);
    // The notice was made with the completion: its job is the action's, queued by the same change.
    const detail = await h.api().get(`/api/v1/sessionrequests/${mine._id}`).set('x-api-key', org.adminKey);
    expect(detail.body.status).toBe('completed');
  });

  it('when actions of an adviser who wants a digest complete and expire, then one e-mail lists them at 07:00 the next morning, and nothing before', async () => {
    const digest = await adviser('digest', 'en');
    const done = await send(digest.key, 'Ruben');
    const ending = await send(digest.key, 'Mira', {
      expiresAt: new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
    });
    await submitAsContact(h, done.code, 'Ruben');
    h.clock.advance(2 * 3_600_000);
    await h.jobs.drain();
    const detail = await h.api().get(`/api/v1/sessionrequests/${ending._id}`).set('x-api-key', org.adminKey);
    expect(detail.body.status).toBe('expired');
    expect(mailsTo(digest.email)).toEqual([]);
    // The next morning at 07:00 Brussels time (06:00 UTC in March).
    const now = h.clock.now();
    const morning = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 6, 0, 0),
    );
    h.clock.set(new Date(morning.getTime() - 60_000));
    await h.jobs.drain();
    expect(mailsTo(digest.email)).toEqual([]);
    h.clock.set(morning);
    await h.jobs.drain();
    await until(() => mailsTo(digest.email).length === 1);
    const mail = mailsTo(digest.email)[0]!;
    expect(mail.subject).toBe('Your actions: 2 updates');
    expect(mail.text).toContain('Ruben Janssens completed ‘Questionnaire’.');
    expect(mail.text).toContain('‘Questionnaire’ for Mira Janssens expired before it was completed.');
    expect(mail.text).toContain(`/staff/actions/${done._id}`);
    h.clock.advance(86_400_000);
    await h.jobs.drain();
    expect(mailsTo(digest.email)).toHaveLength(1);
  });
});

describe('the adviser’s e-mails about messages that could not be delivered', () => {
  // What the mail server answers an address it does not know, as the job records it.
  const REFUSED =
    "Can't send mail - all recipients were rejected: 550 5.1.1 Recipient address rejected: User unknown";
  const notifications = async (id: string) =>
    (await h.api().get(`/api/v1/sessionrequests/${id}`).set('x-api-key', org.adminKey)).body
      .notifications as { status: string; attempts: number; lastError: string | null }[];

  it('when the mail server refuses the contact’s address for good, then the sender who wants each event is told at once in their language, with the reason and the way to the action; one who chose none and an integration get nothing', async () => {
    h.clock.set('2026-03-10T09:00:00.000Z');
    const each = await adviser('each', 'nl');
    const none = await adviser('none', 'nl');
    const integration = await adviser('each', 'nl', 'service');
    for (const address of ['noor', 'wout', 'dirk']) smtp.refuseRecipient(`${address}@example.test`);
    const mine = await send(each.key, 'Noor', { notificationEmail: { send: true } });
    const theirs = await send(none.key, 'Wout', { notificationEmail: { send: true } });
    const its = await send(integration.key, 'Dirk', { notificationEmail: { send: true } });
    await h.jobs.drain();

    // Refused for good: failed on its first attempt, not retried for an hour.
    for (const id of [mine._id, theirs._id, its._id])
      expect(await notifications(id)).toEqual([
        expect.objectContaining({
          status: 'failed',
          attempts: 1,
          lastError: REFUSED,
        }),
      ]);
    expect(smtp.received.filter((m) => /noor|wout|dirk/.test(m.to.join()))).toEqual([]);
    const [mail, ...more] = mailsTo(each.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Niet afgeleverd: Vragenlijst — Noor Janssens');
    expect(mail!.text).toContain(
      `Niet afgeleverd: de uitnodiging voor ‘Vragenlijst’ aan Noor Janssens (noor@example.test) kon niet per e-mail worden verstuurd: ${REFUSED}`,
    );
    expect(mail!.text).toContain(`De actie openen:\nhttp://desk.example.test/staff/actions/${mine._id}`);
    expect(mail!.html).toContain('<html lang="nl">');
    expect(mailsTo(none.email)).toEqual([]);
    expect(mailsTo(integration.email)).toEqual([]);
  });

  it('when an adviser who wants a digest has an invitation refused, then nothing goes at once and the next morning’s digest lists it in their language', async () => {
    h.clock.set('2026-03-11T09:00:00.000Z');
    const digest = await adviser('digest', 'fr');
    smtp.refuseRecipient('ilse@example.test');
    const action = await send(digest.key, 'Ilse', { notificationEmail: { send: true } });
    await h.jobs.drain();
    expect(await notifications(action._id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(mailsTo(digest.email)).toEqual([]);
    h.clock.set('2026-03-12T05:59:00.000Z');
    await h.jobs.drain();
    expect(mailsTo(digest.email)).toEqual([]);
    h.clock.set('2026-03-12T06:00:00.000Z'); // 07:00 in Brussels
    await h.jobs.drain();
    const [mail, ...more] = mailsTo(digest.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Vos actions : 1 nouvelle');
    expect(mail!.text).toContain(
      `• Non remis : impossible d’envoyer l’invitation pour « Questionnaire » à Ilse Janssens (ilse@example.test) par e-mail : ${REFUSED}\n  http://desk.example.test/staff/actions/${action._id}`,
    );
    expect(mail!.html).toContain('<html lang="fr">');
  });

  it('when an SMS fails on every attempt, then the sender is told after the last one, not before', async () => {
    h.clock.set('2026-03-13T09:00:00.000Z');
    const each = await adviser('each', 'en');
    const action = await send(each.key, 'Bart', { notificationSms: { send: true } });
    sms.answer(...Array<number>(8).fill(503));
    for (let attempt = 1; attempt < 8; attempt++) {
      await h.jobs.drain();
      h.clock.advance(defaultRetryDelayMs(attempt));
    }
    expect(await notifications(action._id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 7 }),
    ]);
    expect(mailsTo(each.email)).toEqual([]);
    await h.jobs.drain();
    expect(await notifications(action._id)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 8 }),
    ]);
    const [mail, ...more] = mailsTo(each.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Not delivered: Questionnaire — Bart Janssens');
    expect(mail!.text).toContain(
      'Not delivered: the invitation for ‘Questionnaire’ to Bart Janssens (+32470111222) could not be sent by SMS: SMS provider answered 503: {"error":"unavailable"}',
    );
    expect(mail!.text).toContain(`http://desk.example.test/staff/actions/${action._id}`);
  });

  it('when a delivery fails once and goes through on the next attempt, then the sender is told nothing', async () => {
    h.clock.set('2026-03-14T09:00:00.000Z');
    const each = await adviser('each', 'en');
    const action = await send(each.key, 'Saar', { notificationEmail: { send: true } });
    smtp.refuseNext(1);
    await h.jobs.drain();
    expect(await notifications(action._id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1 }),
    ]);
    h.clock.advance(30_000);
    await h.jobs.drain();
    expect(await notifications(action._id)).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2 }),
    ]);
    expect(mailsTo('saar@example.test')).toHaveLength(1);
    h.clock.advance(86_400_000);
    await h.jobs.drain();
    expect(mailsTo(each.email)).toEqual([]);
  });
});
