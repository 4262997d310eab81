import { Event } from '../src/modules/events';
import { createContact, createOrg, createTemplate, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, submitAsContact } from './support/submissions';
import { until } from './support/until';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
});
afterAll(() => h.close());

/** The parts of events' data these tests read (each event has some of them). */
interface ListedData {
  customer: { _id: string; thirdpartyId?: string | null; data: Record<string, string> };
  sessionRequest: { _id: string; code: string; status: string; type: string };
  sessionId: string | null;
  documents: { fileId: string }[];
  file: { _id: string };
}
type Listed = { id: string; type: string; createdAt: string; organisationId: string; data: ListedData };

async function list(query: Record<string, string> = {}, key = org.adminKey) {
  const res = await h.api().get('/api/v1/events').query(query).set('x-api-key', key);
  expect(res.status).toBe(200);
  for (const e of res.body.events) expect(Event.safeParse(e).success).toBe(true);
  return res.body as { events: Listed[]; nextCursor: string | null; hasMore: boolean };
}

/**
 * Waits until `count` events after `cursor` are listed, then answers them. On a server an event is
 * listed once every transaction older than its own has finished (other test files' included): that is
 * normally within milliseconds, but not always by the time the next request is made.
 */
async function visible(cursor: string | null, count: number) {
  let read = await readAll(cursor);
  await until(async () => {
    read = await readAll(cursor);
    return read.events.length >= count;
  });
  return read;
}

/** Every event after `cursor`, page by page. */
async function readAll(cursor: string | null, limit = '2') {
  const out: Listed[] = [];
  let at = cursor;
  for (let i = 0; i < 100; i++) {
    const page = await list({ limit, ...(at ? { cursor: at } : {}) });
    out.push(...page.events);
    at = page.nextCursor;
    if (!page.hasMore) break;
  }
  return { events: out, cursor: at };
}

describe('domain events', () => {
  it('when actions, contacts and files change, then each change has its event, in order, with what an integrator needs', async () => {
    const { cursor: start } = await readAll(null, '1000');
    const contactRes = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .send({ thirdpartyId: 'EV-1', data: { Voornaam: 'Eva', Email: 'eva@example.test' } });
    const contactId = contactRes.body._id as string;
    await h
      .api()
      .patch(`/api/v1/customers/${contactId}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Gemeente: 'Gent' } });
    const template = await createReportTemplate(h, org);
    const action = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({
        type: 'qlist',
        customerId: contactId,
        questionListIds: [template],
        notificationEmail: { send: true },
      });
    await submitAsContact(h, action.body.code);
    await h.api().post(`/api/v1/sessionrequests/${action.body._id}/reopen`).set('x-api-key', org.adminKey);
    await h
      .api()
      .post(`/api/v1/sessionrequests/${action.body._id}/deactivate`)
      .set('x-api-key', org.adminKey);
    await h.api().delete(`/api/v1/customers/${contactId}?cascade=true`).set('x-api-key', org.adminKey);

    const { events } = await visible(start, 14);
    expect(events.map((e) => e.type)).toEqual([
      'customer.created',
      'customer.updated',
      'sessionrequest.created',
      'sessionrequest.sent',
      'sessionrequest.opened',
      'file.created',
      'session.submitted',
      'sessionrequest.completed',
      'sessionrequest.reopened',
      'sessionrequest.deactivated',
      'sessionrequest.deleted',
      'session.deleted',
      'customer.deleted',
      'file.deleted',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.every((e) => e.organisationId === org.organisationId)).toBe(true);
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['customer.updated']!.data.customer.data).toEqual(
      expect.objectContaining({ Voornaam: 'Eva', Gemeente: 'Gent' }),
    );
    expect(byType['sessionrequest.created']!.data).toEqual({
      sessionRequest: expect.objectContaining({
        _id: action.body._id,
        code: action.body.code,
        type: 'qlist',
      }),
      customer: { _id: contactId, thirdpartyId: 'EV-1' },
      sessionId: null,
      documents: [],
    });
    const completed = byType['sessionrequest.completed']!.data;
    expect(completed.sessionRequest.status).toBe('completed');
    expect(completed.sessionId).toEqual(expect.any(String));
    expect(completed.documents).toEqual([
      expect.objectContaining({ fileId: byType['file.created']!.data.file._id }),
    ]);
    expect(byType['session.submitted']!.data.sessionId).toBe(completed.sessionId);
    expect(byType['customer.deleted']!.data).toEqual({ customer: { _id: contactId, thirdpartyId: 'EV-1' } });
    // What went with the contact is announced too, so a sync drops its copies.
    expect(byType['sessionrequest.deleted']!.data).toEqual({
      sessionRequest: { _id: action.body._id, type: 'qlist', status: 'deactivated' },
      customer: { _id: contactId },
    });
    expect(byType['session.deleted']!.data).toEqual({
      session: { _id: completed.sessionId, sessionRequestId: action.body._id },
      customer: { _id: contactId },
    });
    expect(byType['file.deleted']!.data.file._id).toBe(byType['file.created']!.data.file._id);
  });

  it('when a change is refused, then no event is written', async () => {
    const { cursor } = await readAll(null, '1000');
    const bad = await h.api().post('/api/v1/customers').set('x-api-key', org.adminKey).send({ data: {} });
    expect(bad.status).toBe(400);
    const contactId = await createContact(h, org, { Voornaam: 'Kept' });
    const template = await createTemplate(h, org);
    await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contactId, questionListIds: [template] });
    const refusedDelete = await h
      .api()
      .delete(`/api/v1/customers/${contactId}`)
      .set('x-api-key', org.adminKey);
    expect(refusedDelete.status).toBe(409);
    const { events } = await visible(cursor, 2);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'sessionrequest.created']);
  });

  it('when events are read with filters, then type and since narrow them and the cursor resumes where it stopped', async () => {
    const { cursor } = await readAll(null, '1000');
    await createContact(h, org, { Voornaam: 'One' });
    h.clock.advance(60_000);
    const since = h.clock.now().toISOString();
    await createContact(h, org, { Voornaam: 'Two' });
    const c3 = await createContact(h, org, { Voornaam: 'Three' });
    await h
      .api()
      .patch(`/api/v1/customers/${c3}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Gemeente: 'X' } });
    await visible(cursor, 4);
    const updated = await list({ type: 'customer.updated', cursor: cursor! });
    expect(updated.events.map((e) => e.data.customer._id)).toEqual([c3]);
    const both = await list({ type: 'customer.updated,customer.created', since, cursor: cursor! });
    expect(both.events.map((e) => e.data.customer.data.Voornaam)).toEqual(['Two', 'Three', 'Three']);
    // Nothing new: the cursor stays where it was, so polling again later resumes there.
    const end = await list({ cursor: both.nextCursor! });
    expect(end).toEqual({ events: [], nextCursor: both.nextCursor, hasMore: false });
    await createContact(h, org, { Voornaam: 'Four' });
    await visible(both.nextCursor, 1);
    const later = await list({ cursor: both.nextCursor! });
    expect(later.events.map((e) => e.data.customer.data.Voornaam)).toEqual(['Four']);
  });

  it('when the query is wrong, then 400 names the parameter', async () => {
    for (const [query, field] of [
      [{ type: 'customer.made' }, 'type'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ cursor: Buffer.from('1.2.3').toString('base64url') }, 'cursor'],
      [{ limit: '0' }, 'limit'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: '0000-01-01T00:00:00Z' }, 'since'],
      [{ since: '0001-01-01T00:00:00+01:00' }, 'since'],
      [{ cursor: Buffer.from('18446744073709551616.1').toString('base64url') }, 'cursor'],
    ] as const) {
      const res = await h.api().get('/api/v1/events').query(query).set('x-api-key', org.adminKey);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.details[0]).toEqual(expect.objectContaining({ field, in: 'query' }));
    }
  });

  it('when another organisation reads events, then it sees only its own', async () => {
    await createContact(h, org, { Voornaam: 'Private' });
    const other = await createOrg(h);
    const theirs = await list({ limit: '1000' }, other.adminKey);
    expect(theirs.events.every((e) => e.organisationId === other.organisationId)).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain('Private');
  });
});
