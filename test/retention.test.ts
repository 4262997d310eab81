import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { runCli } from '../src/cli/run';
import { databaseStorage } from '../src/platform/files/file-contents.repository';
import { newId } from '../src/platform/kernel/ids';
import { sweepRetention } from '../src/platform/ops/retention';
import {
  createContact,
  createInvitedAction,
  createOrg,
  createTemplate,
  createWebhook,
  type TestOrg,
  tenantRows,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';

let h: Harness;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  org = await createOrg(h);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

const DAY = 86_400_000;
const count = async (table: string, where = sql`TRUE`) => {
  const [row] = await tenantRows<{ n: string }>(
    h,
    org.organisationId,
    sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE ${where}`,
  );
  return Number(row?.n);
};

describe('the retention sweep', () => {
  it('when work is older than its retention, then finished jobs, delivered events and old audit records go, and what still waits for a delivery stays', async () => {
    await createWebhook(h, org, receiver.url, ['customer.created']);
    // Two contacts: the first one's delivery succeeds, the second one's fails and waits for its retry.
    const delivered = await createContact(h, org, { Voornaam: 'Delivered' });
    await h.jobs.drain();
    receiver.answer({ status: 500 });
    const waiting = await createContact(h, org, { Voornaam: 'Waiting' });
    await h.jobs.drain();
    expect(await count('webhook_deliveries', sql`status = 'succeeded'`)).toBe(1);
    expect(await count('webhook_deliveries', sql`status = 'pending'`)).toBe(1);
    const jobsDone = await count('jobs', sql`status = 'done'`);
    expect(jobsDone).toBeGreaterThanOrEqual(1);
    const auditBefore = await count('audit_events');
    expect(auditBefore).toBeGreaterThan(0);

    // 100 days on, a contact changed today: its audit record and its event are recent.
    h.clock.advance(100 * DAY);
    const recent = await createContact(h, org, { Voornaam: 'Recent' });

    const removed = await sweepRetention(h.database, h.clock.now(), {
      jobsDays: 30,
      eventsDays: 90,
      auditDays: 60,
      sweepMs: 3_600_000,
    });
    expect(removed).toMatchObject({
      jobs: jobsDone,
      webhook_deliveries: 1,
      events: 1,
      audit_events: auditBefore,
    });
    expect(await count('jobs', sql`status = 'done'`)).toBe(0);
    expect(await count('jobs', sql`status = 'pending'`)).toBeGreaterThanOrEqual(1);
    // Waiting: the failed one's retry, and the recent contact's first delivery.
    expect(await count('webhook_deliveries', sql`status = 'pending'`)).toBe(2);
    expect(await count('audit_events')).toBeGreaterThan(0);
    expect(
      await count(
        'audit_events',
        sql`at < ${new Date(h.clock.now().getTime() - 60 * DAY).toISOString()}::timestamptz`,
      ),
    ).toBe(0);

    // The event API shows what is kept: the event waiting for its delivery, and the recent one.
    await untilSettled(h, org.organisationId);
    const events = await h
      .api()
      .get('/api/v1/events?type=customer.created&limit=100')
      .set('x-api-key', org.adminKey);
    const subjects = events.body.events.map(
      (e: { data: { customer: { _id: string } } }) => e.data.customer._id,
    );
    expect(subjects).not.toContain(delivered);
    expect(subjects).toEqual(expect.arrayContaining([waiting, recent]));
  });

  it('when a kind is kept for ever (0 days), then the sweep leaves it alone', async () => {
    await createContact(h, org, { Voornaam: 'Kept' });
    await h.jobs.drain();
    h.clock.advance(1_000 * DAY);
    const before = {
      jobs: await count('jobs'),
      audit: await count('audit_events'),
      events: await count('events'),
    };
    const removed = await sweepRetention(h.database, h.clock.now(), {
      jobsDays: null,
      eventsDays: null,
      auditDays: null,
      sweepMs: 3_600_000,
    });
    expect(removed).not.toHaveProperty('jobs');
    expect(removed).not.toHaveProperty('events');
    expect(removed).not.toHaveProperty('audit_events');
    expect({
      jobs: await count('jobs'),
      audit: await count('audit_events'),
      events: await count('events'),
    }).toEqual(before);
  });

  it('when an upload never got its file (a process ended mid-upload), then its parts go after a day, and stored files stay', async () => {
    const storage = databaseStorage(h.database);
    const orphan = newId();
    await storage.put(`${org.organisationId}/${orphan}`, Readable.from([Buffer.from('half an upload')]));
    // Written two days ago by the database's own clock (the sweep never takes anything younger than a day).
    await tenantRows(
      h,
      org.organisationId,
      sql`UPDATE file_contents SET created_at = now() - interval '2 days' WHERE file_id = ${orphan} RETURNING file_id`,
    );
    const kept = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach(
        'file',
        Buffer.from(
          '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
        ),
        'kept.pdf',
      );
    expect(kept.status).toBe(201);
    // The parts' age is the database's own clock: a day past it.
    const removed = await sweepRetention(h.database, new Date(Date.now() + 2 * DAY), {
      jobsDays: null,
      eventsDays: null,
      auditDays: null,
      sweepMs: 3_600_000,
    });
    expect(removed.file_contents).toBe(1);
    expect(await count('file_contents', sql`file_id = ${orphan}`)).toBe(0);
    expect((await h.api().get(kept.body.fileUrl).set('x-api-key', org.adminKey)).status).toBe(200);
  });

  it('when an action’s invitation was sent long ago, then its message history stays with the action', async () => {
    // Sent 90 days ago (by the database's clock too), swept with 30 days of job retention.
    h.clock.set(new Date(Date.now() - 90 * DAY));
    const contact = await createContact(h, org, { Voornaam: 'Lang', Email: 'lang@example.test' });
    const template = await createTemplate(h, org);
    const actionId = await createInvitedAction(h, org, contact, template);
    await h.jobs.drain();
    h.clock.advance(60 * DAY);
    await sweepRetention(h.database, h.clock.now(), {
      jobsDays: 30,
      eventsDays: null,
      auditDays: null,
      sweepMs: 3_600_000,
    });
    const detail = await h.api().get(`/api/v1/sessionrequests/${actionId}`).set('x-api-key', org.adminKey);
    expect(detail.body.notifications).toEqual([
      expect.objectContaining({ channel: 'email', purpose: 'invitation', status: 'sent' }),
    ]);
  });

  it('when a sweep is asked for a moment far ahead, then nothing younger than a day by the database’s clock goes', async () => {
    await createContact(h, org, { Voornaam: 'Today' });
    const before = await count('audit_events', sql`at > now() - interval '1 day'`);
    expect(before).toBeGreaterThan(0);
    const farAhead = new Date(Date.now() + 10_000 * DAY);
    await sweepRetention(h.database, farAhead, {
      jobsDays: 1,
      eventsDays: 1,
      auditDays: 1,
      sweepMs: 3_600_000,
    });
    expect(await count('audit_events', sql`at > now() - interval '1 day'`)).toBe(before);
  });

  it('when `cli prune` runs, then it prints what it removed', async () => {
    const out: string[] = [];
    const io = {
      env: { DATABASE_URL: '', DATA_DIR: h.dataDir, RETENTION_JOBS_DAYS: '7' },
      stdout: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream,
      stderr: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream,
    };
    expect(await runCli(['prune'], io)).toBe(0);
    expect(out.join('')).toMatch(
      /^Retention: jobs older than 7 days, events older than 90 days, audit older than 730 days\n/,
    );
    expect(out.join('')).toMatch(/ {2}jobs +\d+ removed\n/);
  });
});
