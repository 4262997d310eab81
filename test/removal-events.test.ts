import { sql } from 'drizzle-orm';
import request from 'supertest';
import { samplePdf } from './support/binary';
import {
  createContact,
  createOrg,
  createWebhook,
  type TestOrg,
  tenantRows,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, submitAsContact } from './support/submissions';

// The events that announce removed actions and sessions (sessionrequest.deleted, session.deleted), and
// the webhook deliveries recording an event writes: rules the code keeps since migration 0044.

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  org = await createOrg(h);
});
afterAll(() => h.close());

const api = () => h.api();

async function post(path: string, body: Record<string, unknown>) {
  const res = await api().post(path).set('x-api-key', org.adminKey).send(body);
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

/** Visits a campaign as a new visitor (name, e-mail) and submits an answer; the contact is matched by e-mail. */
async function visit(code: string, firstName: string, email: string) {
  const agent = request.agent(h.server);
  const first = await agent.get(`/action/${code}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  const form = (fields: [string, string][], suffix = '') =>
    agent
      .post(`/action/${code}${suffix}?lang=nl`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  const started = await form(
    [
      ['firstName', firstName],
      ['lastName', 'Visitor'],
      ['email', email],
    ],
    '/start',
  );
  expect(started.status).toBe(303);
  const step = await form([
    ['step', '0'],
    ['nav', 'next'],
    ['q.q', firstName],
  ]);
  expect(step.status).toBe(303);
  expect((await form([], '/submit')).status).toBe(303);
  await h.jobs.drain();
}

interface EventRow {
  id: string;
  type: string;
  subject_id: string | null;
  data: Record<string, unknown>;
  created_at: Date | string;
}

/** The organisation's events after `seq`, in the order they were written. */
const eventsAfter = (seq: number) =>
  tenantRows<EventRow & { seq: string }>(
    h,
    org.organisationId,
    sql`SELECT id, type, subject_id, data, created_at, seq FROM events WHERE seq > ${seq} ORDER BY seq`,
  );

async function lastSeq(): Promise<number> {
  const [row] = await tenantRows<{ seq: string | null }>(
    h,
    org.organisationId,
    sql`SELECT max(seq) AS seq FROM events`,
  );
  return Number(row?.seq ?? 0);
}

/** The sessions of an action (a campaign's: one per visitor), oldest first. */
const sessionsOf = (actionId: string) =>
  tenantRows<{ id: string; customer_id: string | null }>(
    h,
    org.organisationId,
    sql`SELECT id, customer_id FROM sessions WHERE session_request_id = ${actionId}::uuid ORDER BY created_at, id`,
  );

describe('removal events', () => {
  it('when a contact who co-signs, has an action of their own and answered a campaign is deleted with cascade, then each action and session that went is announced once, in the order they went, at the request’s time, and delivered', async () => {
    const xena = await createContact(h, org, { Voornaam: 'Xena', Email: 'xena@example.test' });
    const yves = await createContact(h, org, { Voornaam: 'Yves', Email: 'yves@example.test' });
    const template = await createReportTemplate(h, org);
    const upload = await api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', await samplePdf('Shared'), 'shared.pdf');
    // Yves's signing action that Xena co-signs: deleted first, with the statement before the contact's.
    const cosigned = await post('/api/v1/sessionrequests', {
      type: 'quicksign',
      customerIds: [yves, xena],
      document: { fileId: upload.body._id, title: 'Shared' },
    });
    // A campaign Xena answered as a visitor (matched by her e-mail), before her own action: her session
    // goes after her action's (the cascade takes actions' sessions first); the campaign and another
    // visitor's session stay.
    const campaign = await post('/api/v1/sessionrequests', { type: 'campaign', questionListIds: [template] });
    await visit(campaign.code, 'Xena', 'xena@example.test');
    await visit(campaign.code, 'Walt', 'walt@example.test');
    // Xena's own questionnaire, submitted: the action and its session go with her.
    const own = await post('/api/v1/sessionrequests', {
      type: 'qlist',
      customerId: xena,
      questionListIds: [template],
    });
    await submitAsContact(h, own.code, 'Xena');
    const visits = await sessionsOf(campaign._id);
    const xenaVisit = visits.find((s) => s.customer_id === xena)!;
    const waltVisit = visits.find((s) => s.customer_id !== xena)!;
    expect(xenaVisit).toBeDefined();
    const [ownSession] = await sessionsOf(own._id);
    const webhook = await createWebhook(h, org, 'http://127.0.0.1:9/hook', [
      'sessionrequest.deleted',
      'session.deleted',
    ]);
    const since = await lastSeq();
    h.clock.advance(5_000);
    const at = h.clock.now();

    const erased = await api()
      .delete(`/api/v1/customers/${xena}?cascade=true`)
      .set('x-api-key', org.adminKey);
    expect(erased.status).toBe(204);

    const events = await eventsAfter(since);
    const removals = events.filter(
      (e) => e.type === 'sessionrequest.deleted' || e.type === 'session.deleted',
    );
    expect(removals.map((e) => [e.type, e.subject_id])).toEqual([
      ['sessionrequest.deleted', cosigned._id],
      ['sessionrequest.deleted', own._id],
      ['session.deleted', ownSession!.id],
      ['session.deleted', xenaVisit.id],
    ]);
    expect(removals.map((e) => e.data)).toEqual([
      {
        sessionRequest: { _id: cosigned._id, type: 'quicksign', status: 'created' },
        customer: { _id: yves },
      },
      { sessionRequest: { _id: own._id, type: 'qlist', status: 'completed' }, customer: { _id: xena } },
      { session: { _id: ownSession!.id, sessionRequestId: own._id }, customer: { _id: xena } },
      { session: { _id: xenaVisit.id, sessionRequestId: campaign._id }, customer: { _id: xena } },
    ]);
    for (const e of removals) expect(new Date(e.created_at).toISOString()).toBe(at.toISOString());
    // They come before the contact's own event, which is written once the contact is gone.
    expect(events.map((e) => e.type).indexOf('customer.deleted')).toBeGreaterThan(
      events.indexOf(removals.at(-1)!),
    );
    // What stays is not announced.
    expect(events.map((e) => e.subject_id)).not.toContain(campaign._id);
    expect(events.map((e) => e.subject_id)).not.toContain(waltVisit.id);
    expect(await sessionsOf(campaign._id)).toEqual([waltVisit]);
    // Each is delivered to the webhook subscribed to them, in the same transaction.
    const deliveries = await tenantRows<{ event_id: string; status: string; jobs: number }>(
      h,
      org.organisationId,
      sql`SELECT d.event_id, d.status,
                 (SELECT count(*)::int FROM jobs j WHERE j.subject_id = d.id AND j.kind = 'webhook-delivery') AS jobs
            FROM webhook_deliveries d WHERE d.endpoint_id = ${webhook}::uuid ORDER BY d.event_seq`,
    );
    expect(deliveries).toEqual(removals.map((e) => ({ event_id: e.id, status: 'pending', jobs: 1 })));
    await untilSettled(h, org.organisationId);
  });

  it('when one change records two events of a subject, then the later one’s delivery waits a minute behind the earlier one’s', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Olga', Email: 'olga@example.test' });
    const template = await createReportTemplate(h, org);
    const webhook = await createWebhook(h, org, 'http://127.0.0.1:9/order', [
      'sessionrequest.created',
      'sessionrequest.sent',
    ]);
    const action = await post('/api/v1/sessionrequests', {
      type: 'qlist',
      customerId: contact,
      questionListIds: [template],
      notificationEmail: { send: true },
    });
    const rows = await tenantRows<{
      event_type: string;
      created_at: Date | string;
      next_attempt_at: Date | string;
      run_at: Date | string;
    }>(
      h,
      org.organisationId,
      sql`SELECT d.event_type, d.created_at, d.next_attempt_at, j.run_at
            FROM webhook_deliveries d JOIN jobs j ON j.subject_id = d.id AND j.kind = 'webhook-delivery'
           WHERE d.endpoint_id = ${webhook}::uuid AND d.subject_id = ${action._id}::uuid
           ORDER BY d.event_seq`,
    );
    const ms = (v: Date | string) => new Date(v).getTime();
    expect(rows.map((r) => r.event_type)).toEqual(['sessionrequest.created', 'sessionrequest.sent']);
    const [created, sent] = rows;
    expect(ms(created!.next_attempt_at)).toBe(ms(created!.created_at));
    expect(ms(sent!.next_attempt_at)).toBe(ms(sent!.created_at) + 60_000);
    for (const r of rows) expect(ms(r.run_at)).toBe(ms(r.next_attempt_at));
  });
});
