import { sql } from 'drizzle-orm';
import { seedContacts } from '../src/modules/customers/seed.service';
import {
  basicAuth,
  createContact,
  createOrg,
  createUserWithKey,
  type TestOrg,
  tenantRows,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Audit');
});
afterAll(() => h.close());

interface Event {
  action: string;
  at: string;
  actor: { type: string; userId: string | null; credentialId: string | null; label: string | null };
  target: { type: string; id: string };
  summary: Record<string, unknown>;
  requestId: string | null;
  address: string | null;
}

async function eventsOf(query: string): Promise<Event[]> {
  const res = await h.api().get(`/api/v1/audit-events?limit=100&${query}`).set('x-api-key', org.adminKey);
  expect(res.status).toBe(200);
  return res.body.events;
}

describe('the audit trail records every change, in the transaction of the change', () => {
  it('when a CRM creates and changes a contact with its API key, then each change names the key, the request, the address, the time and the changed fields, never the personal values', async () => {
    const crm = await createUserWithKey(h, org, ['adviser'], 'service');
    h.clock.set('2026-03-02T10:00:00.000Z');
    const created = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', crm.key)
      .set('X-Request-Id', 'crm-create-1')
      .send({ thirdpartyId: 'CRM-77', data: { Voornaam: 'Griet', Email: 'griet@example.test' } });
    expect(created.status).toBe(201);
    h.clock.set('2026-03-02T10:05:00.000Z');
    const changed = await h
      .api()
      .patch(`/api/v1/customers/${created.body._id}`)
      .set('x-api-key', crm.key)
      .send({ data: { Telefoon: '+32470000077' } });
    expect(changed.status).toBe(200);

    const events = await eventsOf(`targetType=customer&targetId=${created.body._id}`);
    expect(events).toEqual([
      {
        _id: expect.any(String),
        action: 'customer.updated',
        at: '2026-03-02T10:05:00.000Z',
        actor: { type: 'api_key', userId: crm.userId, credentialId: crm.keyId, label: null },
        target: { type: 'customer', id: created.body._id },
        summary: { data: { keys: ['Telefoon'] } },
        requestId: changed.headers['x-request-id'],
        address: '127.0.0.1',
      },
      {
        _id: expect.any(String),
        action: 'customer.created',
        at: '2026-03-02T10:00:00.000Z',
        actor: { type: 'api_key', userId: crm.userId, credentialId: crm.keyId, label: null },
        target: { type: 'customer', id: created.body._id },
        summary: {
          data: { keys: ['Email', 'Voornaam'] },
          portfolioId: { before: null, after: org.portfolioId },
          thirdpartyId: { before: null, after: 'CRM-77' },
        },
        requestId: 'crm-create-1',
        address: '127.0.0.1',
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('griet@example.test');
    expect(JSON.stringify(events)).not.toContain('+32470000077');

    // The filters: by credential, by request, by type of actor, by period.
    expect((await eventsOf(`actorCredentialId=${crm.keyId}`)).map((e) => e.action)).toEqual([
      'customer.updated',
      'customer.created',
    ]);
    expect((await eventsOf('requestId=crm-create-1')).map((e) => e.action)).toEqual(['customer.created']);
    expect((await eventsOf('actorType=api_key&since=2026-03-02T10:01:00Z')).map((e) => e.action)).toEqual([
      'customer.updated',
    ]);
  });

  it('when a contact is deleted, then the event keeps what told it apart; the trail itself cannot be rewritten; a seed is one event', async () => {
    const made = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .send({ thirdpartyId: 'CRM-GONE', data: { Voornaam: 'Weg' } });
    const gone = await h.api().delete(`/api/v1/customers/${made.body._id}`).set('x-api-key', org.adminKey);
    expect(gone.status).toBe(204);
    const [deleted] = await eventsOf(`requestId=${gone.headers['x-request-id']}`);
    expect(deleted).toMatchObject({
      action: 'customer.deleted',
      target: { type: 'customer', id: made.body._id },
      summary: { thirdpartyId: { before: 'CRM-GONE', after: null }, data: { keys: ['Voornaam'] } },
    });
    const refusal = (q: ReturnType<typeof sql>) =>
      tenantRows(h, org.organisationId, q).then(
        () => 'allowed',
        (err: { cause?: { message?: string } }) => String(err.cause?.message),
      );
    expect(await refusal(sql`UPDATE audit_events SET action = 'nothing' RETURNING id`)).toMatch(
      /permission denied/,
    );
    expect(await refusal(sql`DELETE FROM audit_events RETURNING id`)).toMatch(/permission denied/);

    const seeded = await seedContacts(h, org.organisationId, 3);
    expect(seeded.created).toBe(3);
    const seedEvents = await eventsOf('actorType=system&since=2026-03-02T00:00:00Z');
    const bySeed = seedEvents.filter((e) => e.actor.label === 'seed');
    expect(bySeed.map((e) => [e.action, e.summary.created])).toEqual([['customer.seeded', 3]]);
  });

  it('when an administrator regroups a user and makes a key, then the groups show before and after and the key’s secret only as set', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const regrouped = await h
      .api()
      .patch(`/api/v1/admin/users/${adviser.userId}`)
      .set('x-api-key', org.adminKey)
      .send({ groups: ['read-only'] });
    expect(regrouped.status).toBe(200);
    const key = await h
      .api()
      .post(`/api/v1/admin/users/${adviser.userId}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'second key' });
    expect(key.status).toBe(201);
    const [groups] = await eventsOf(`requestId=${regrouped.headers['x-request-id']}`);
    expect(groups).toMatchObject({
      action: 'user.updated',
      actor: { type: 'api_key', userId: org.adminId },
      summary: { groups: { before: ['adviser'], after: ['read-only'] } },
    });
    const [made] = await eventsOf(`requestId=${key.headers['x-request-id']}`);
    expect(made).toMatchObject({
      action: 'api_key.created',
      target: { type: 'api_key', id: key.body._id },
      summary: { name: { before: null, after: 'second key' }, secretHash: 'set' },
    });
    expect(JSON.stringify(made)).not.toContain(key.body.apiKey);
  });

  it('when a contact answers through the public link, then the change is the contact’s, with the request and address; the job that completes it is the system’s', async () => {
    const template = await createReportTemplate(h, org);
    const contact = await createContact(h, org, { Voornaam: 'Hilde', Email: 'hilde@example.test' });
    const action = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contact, questionListIds: [template] });
    expect(action.status).toBe(201);
    await submitAsContact(h, action.body.code, 'Antwoord-Hilde');
    const events = await eventsOf('actorType=contact');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.actor).toEqual({ type: 'contact', userId: null, credentialId: null, label: null });
      expect(e.requestId).toEqual(expect.any(String));
      expect(e.address).toBe('127.0.0.1');
    }
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['session.created']));
    expect(JSON.stringify(events)).not.toContain('Antwoord-Hilde'); // answers are never in the trail

    // The report is made by a background job, which completes the action: the system, named by the job.
    const system = (await eventsOf(`actorType=system&targetId=${action.body._id}`)).filter(
      (e) => e.action === 'session_request.updated',
    );
    expect(system.map((e) => [e.actor.label, e.requestId, e.summary.status])).toContainEqual([
      expect.any(String),
      null,
      { before: expect.any(String), after: 'completed' },
    ]);
  });

  it('when a partner application gets and revokes a token at the OAuth endpoints, then the trail names that client, not the system', async () => {
    const made = await h
      .api()
      .post('/api/v1/admin/oauth/clients')
      .set('x-api-key', org.adminKey)
      .send({ name: 'Audited client', grants: ['client_credentials'], scopes: ['read'] });
    expect(made.status).toBe(201);
    const auth = basicAuth(made.body.clientId, made.body.clientSecret);
    const token = await h
      .api()
      .post('/api/v1/auth/oauth/token')
      .type('form')
      .set('Authorization', auth)
      .send({ grant_type: 'client_credentials' });
    expect(token.status).toBe(200);
    const revoked = await h
      .api()
      .post('/api/v1/auth/oauth/revoke')
      .type('form')
      .set('Authorization', auth)
      .send({ token: token.body.access_token });
    expect(revoked.status).toBe(200);
    const trail = await h
      .api()
      .get('/api/v1/audit-events?targetType=oauth_token&limit=10')
      .set('x-api-key', org.adminKey);
    const ofClient = trail.body.events.filter(
      (e: { actor: { credentialId: string | null } }) => e.actor.credentialId === made.body._id,
    );
    expect(ofClient.map((e: { action: string }) => e.action).sort()).toEqual([
      'oauth_token.created',
      'oauth_token.updated',
    ]);
    for (const e of ofClient) {
      expect(e.actor).toEqual({
        type: 'oauth_client',
        userId: made.body.serviceUserId,
        credentialId: made.body._id,
        label: expect.stringMatching(/^OAuth (token|revocation) endpoint$/),
      });
      expect(e.requestId).toEqual(expect.any(String));
    }
  });
});
