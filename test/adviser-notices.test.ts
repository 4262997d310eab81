import { sql } from 'drizzle-orm';
import { createContact, createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { createReportTemplate, submitAsContact } from './support/submissions';
import { until } from './support/until';

// The adviser's e-mails about the actions they sent (issue 30, item 3): one per event, a daily digest, or
// none, as each user chose; made in the transaction that records the event.

let h: Harness;
let org: TestOrg;
let template: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url, TIME_ZONE: 'Europe/Brussels' });
  org = await createOrg(h, 'Kantoor Janssens');
  template = await createReportTemplate(h, org);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

/** An adviser with their own key (what they send is theirs) and their notice settings. */
async function adviser(notify: 'each' | 'digest' | 'none', language: 'nl' | 'fr' | 'en' | null) {
  const made = await createUserWithKey(h, org, ['adviser']);
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
    Email: `${first}@example.test`,
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
