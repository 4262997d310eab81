import fs from 'node:fs';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { Event } from '../src/modules/events';
import { RETRY_SCHEDULE_MS, webhookDeliveryJob } from '../src/modules/webhooks';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { createContact, createOrg, createUserWithKey, type TestOrg, unknownId } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { createReportTemplate, submitAsContact } from './support/submissions';
import { until } from './support/until';

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '1' };

let h: Harness;
let org: TestOrg;
const receivers: Receiver[] = [];
beforeAll(async () => {
  h = await startHarness(ENV);
  org = await createOrg(h);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await h.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startWebhookReceiver(() => h.clock.now());
  receivers.push(r);
  return r;
}

async function subscribe(url: string, events: string[] = ['*'], key = org.adminKey) {
  const res = await h.api().post('/api/v1/webhooks').set('x-api-key', key).send({ url, events });
  expect(res.status).toBe(201);
  return res.body as { _id: string; secret: string; url: string; events: string[] };
}

/** Every verifying signature of a request, checked with the standardwebhooks package. */
function verifiesWith(secret: string, req: { raw: string; headers: Record<string, unknown> }): boolean {
  const id = String(req.headers['webhook-id']);
  const at = new Date(Number(req.headers['webhook-timestamp']) * 1000);
  const expected = new Verifier(secret).sign(id, at, req.raw);
  return String(req.headers['webhook-signature']).split(' ').includes(expected);
}

async function newAction(thirdpartyId: string) {
  const contact = await h
    .api()
    .post('/api/v1/customers')
    .set('x-api-key', org.adminKey)
    .send({ thirdpartyId, data: { Voornaam: 'Marie', Email: 'marie@example.test' } });
  const template = await createReportTemplate(h, org);
  const action = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: contact.body._id, questionListIds: [template] });
  expect(action.status).toBe(201);
  return {
    contactId: contact.body._id as string,
    actionId: action.body._id as string,
    code: action.body.code,
  };
}

async function deliveries(webhookId: string, key = org.adminKey) {
  const res = await h.api().get(`/api/v1/webhooks/${webhookId}/deliveries`).set('x-api-key', key);
  expect(res.status).toBe(200);
  return res.body.deliveries as {
    _id: string;
    eventType: string;
    eventId: string;
    status: string;
    attempts: number;
    responseStatus: number | null;
    lastError: string | null;
    nextAttemptAt: string | null;
    request: { url: string; headers: Record<string, string>; body: string } | null;
    history: { status: number | null }[];
  }[];
}

async function removeAllWebhooks() {
  const list = await h.api().get('/api/v1/webhooks').set('x-api-key', org.adminKey);
  for (const w of list.body.webhooks as { _id: string }[])
    await h.api().delete(`/api/v1/webhooks/${w._id}`).set('x-api-key', org.adminKey);
}

afterEach(async () => {
  await removeAllWebhooks();
  await h.jobs.drain();
});

describe('webhook subscriptions', () => {
  it('when a webhook is created, then its secret is answered once and never shown again', async () => {
    const r = await receiver();
    const created = await subscribe(r.url, ['sessionrequest.completed', 'customer.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await h.api().get(`/api/v1/webhooks/${created._id}`).set('x-api-key', org.adminKey);
    expect(got.body).toEqual(
      expect.objectContaining({
        _id: created._id,
        url: r.url,
        events: ['sessionrequest.completed', 'customer.created'],
        enabled: true,
        failingSince: null,
      }),
    );
    expect(JSON.stringify(got.body)).not.toContain(created.secret.slice(6, 20));
    const list = await h.api().get('/api/v1/webhooks').set('x-api-key', org.adminKey);
    expect(list.body.webhooks.map((w: { _id: string }) => w._id)).toEqual([created._id]);
    // Stored sealed, not in clear.
    const [stored] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ secrets: unknown }>(
        tx,
        sql`SELECT secrets FROM webhook_endpoints WHERE id = ${created._id}`,
      ),
    );
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(6));
  });

  it('when the events or url are wrong, then 400 names them and nothing is created', async () => {
    const bad = await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', org.adminKey)
      .send({ url: 'ftp://example.com/x', events: ['sessionrequest.done', '*'] });
    expect(bad.status).toBe(400);
    const fields = bad.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['events[0]']));
    const badUrl = await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', org.adminKey)
      .send({ url: 'ftp://example.com/x', events: ['*'] });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.details).toEqual([
      expect.objectContaining({ field: 'url', message: 'must be an http or https URL' }),
    ]);
    const list = await h.api().get('/api/v1/webhooks').set('x-api-key', org.adminKey);
    expect(list.body.webhooks).toEqual([]);
  });

  it('when a user without the admin permission manages webhooks, then 403', async () => {
    const reader = await createUserWithKey(h, org, ['adviser']);
    const res = await h.api().get('/api/v1/webhooks').set('x-api-key', reader.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(expect.objectContaining({ success: false, code: 403 }));
  });

  it('when another organisation asks for a webhook or its deliveries, then 404 and nothing leaks', async () => {
    const r = await receiver();
    const mine = await subscribe(r.url, ['customer.created']);
    await createContact(h, org, { Voornaam: 'An' });
    await h.jobs.drain();
    const [delivery] = await deliveries(mine._id);
    const other = await createOrg(h);
    for (const [method, url] of [
      ['get', `/api/v1/webhooks/${mine._id}`],
      ['patch', `/api/v1/webhooks/${mine._id}`],
      ['delete', `/api/v1/webhooks/${mine._id}`],
      ['get', `/api/v1/webhooks/${mine._id}/deliveries`],
      ['post', `/api/v1/webhooks/${mine._id}/test`],
      ['post', `/api/v1/webhooks/${mine._id}/rotate-secret`],
      ['post', `/api/v1/webhooks/deliveries/${delivery!._id}/redeliver`],
    ] as const) {
      const req = h.api()[method](url).set('x-api-key', other.adminKey);
      const res = method === 'patch' ? await req.send({ enabled: false }) : await req;
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain(r.url);
    }
    const theirs = await h.api().get('/api/v1/webhooks').set('x-api-key', other.adminKey);
    expect(theirs.body.webhooks).toEqual([]);
    const still = await h.api().get(`/api/v1/webhooks/${mine._id}`).set('x-api-key', org.adminKey);
    expect(still.body.enabled).toBe(true);
  });

  it('when the test endpoint is called, then a signed webhook.test message is sent and its answer reported', async () => {
    const r = await receiver();
    const w = await subscribe(r.url);
    r.answer({ status: 418 });
    const res = await h.api().post(`/api/v1/webhooks/${w._id}/test`).set('x-api-key', org.adminKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        delivered: false,
        responseStatus: 418,
        responseBody: 'nope',
        error: 'answered 418',
      }),
    );
    expect(r.received[0]!.body).toEqual(expect.objectContaining({ type: 'webhook.test' }));
    expect(verifiesWith(w.secret, r.received[0]!)).toBe(true);
    expect(res.body.request.body).toBe(r.received[0]!.raw);
  });
});

describe('deliveries', () => {
  it('when an action is completed through the contact’s pages, then the webhook carries thirdpartyId and verifies with standardwebhooks', async () => {
    h.clock.set(new Date());
    const r = await receiver();
    const w = await subscribe(r.url, ['sessionrequest.completed']);
    const { actionId, code, contactId } = await newAction('CRM-42');
    await submitAsContact(h, code);
    await h.jobs.drain();
    expect(r.received).toHaveLength(1);
    const req = r.received[0]!;
    // The off-the-shelf verifier, timestamp tolerance included.
    const verified = new Verifier(w.secret).verify(req.raw, req.headers as Record<string, string>) as Event;
    expect(Event.parse(verified)).toEqual(verified);
    expect(verified).toEqual({
      id: req.headers['webhook-id'],
      type: 'sessionrequest.completed',
      createdAt: expect.any(String),
      livemode: true,
      organisationId: org.organisationId,
      data: {
        sessionRequest: {
          _id: actionId,
          code,
          status: 'completed',
          type: 'qlist',
          url: `http://localhost:3000/action/${code}`,
        },
        customer: { _id: contactId, thirdpartyId: 'CRM-42' },
        sessionId: expect.any(String),
        documents: [
          {
            fileId: expect.any(String),
            fileName: expect.stringMatching(/\.pdf$/),
            url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/downloads\//),
          },
        ],
      },
    });
    const session = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${actionId}`)
      .set('x-api-key', org.adminKey);
    expect(verified.data).toEqual(expect.objectContaining({ sessionId: session.body.sessions[0]._id }));
    expect(req.headers['content-type']).toBe('application/json');
    const [d] = await deliveries(w._id);
    expect(d).toEqual(expect.objectContaining({ status: 'succeeded', attempts: 1, responseStatus: 200 }));
  });

  it('when a receiver fails twice then succeeds, then it gets the same event id three times at the backoff intervals', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created']);
    r.answer({ status: 500 }, { status: 503 });
    await createContact(h, org, { Voornaam: 'Retry' });
    const start = h.clock.now().getTime();
    await h.jobs.drain();
    expect(r.received).toHaveLength(1);
    let [d] = await deliveries(w._id);
    expect(d).toEqual(
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        responseStatus: 500,
        lastError: 'answered 500',
      }),
    );
    const firstDelay = new Date(d!.nextAttemptAt!).getTime() - start;
    expect(firstDelay).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[0]! * 0.9);
    expect(firstDelay).toBeLessThanOrEqual(RETRY_SCHEDULE_MS[0]! * 1.1);
    // Not before its time.
    h.clock.advance(RETRY_SCHEDULE_MS[0]! * 0.85);
    await h.jobs.drain();
    expect(r.received).toHaveLength(1);
    h.clock.set(new Date(d!.nextAttemptAt!));
    await h.jobs.drain();
    expect(r.received).toHaveLength(2);
    [d] = await deliveries(w._id);
    const secondDelay = new Date(d!.nextAttemptAt!).getTime() - h.clock.now().getTime();
    expect(secondDelay).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[1]! * 0.9);
    expect(secondDelay).toBeLessThanOrEqual(RETRY_SCHEDULE_MS[1]! * 1.1);
    h.clock.set(new Date(d!.nextAttemptAt!));
    await h.jobs.drain();
    expect(r.received).toHaveLength(3);
    const ids = r.received.map((x) => x.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    expect(r.received.map((x) => x.body.id)).toEqual(ids);
    expect(r.received.every((x) => verifiesWith(w.secret, x))).toBe(true);
    [d] = await deliveries(w._id);
    expect(d).toEqual(expect.objectContaining({ status: 'succeeded', attempts: 3, nextAttemptAt: null }));
    expect(d!.history.map((a) => a.status)).toEqual([500, 503, 200]);
  });

  it('when a receiver never answers, then its delivery times out without holding up another endpoint', async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.answer('hang');
    const wSlow = await subscribe(slow.url, ['customer.created']);
    await subscribe(fast.url, ['customer.created']);
    await createContact(h, org, { Voornaam: 'Slow' });
    const draining = h.jobs.drain();
    await Promise.all([slow.waitFor(1), fast.waitFor(1)]);
    // The fast endpoint has its delivery while the slow one still holds its request open.
    const [slowDelivery] = await deliveries(wSlow._id);
    expect(slowDelivery!.attempts).toBe(0);
    await draining;
    const [after] = await deliveries(wSlow._id);
    expect(after).toEqual(
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        responseStatus: null,
        lastError: 'no answer within 1 s',
      }),
    );
  });

  it('when a receiver answers with a redirect, then it is not followed and the attempt fails saying so', async () => {
    const target = await receiver();
    const r = await receiver();
    r.answer({ status: 302, location: target.url });
    const w = await subscribe(r.url, ['customer.created']);
    await createContact(h, org, { Voornaam: 'Redirected' });
    await h.jobs.drain();
    expect(target.received).toHaveLength(0);
    const [d] = await deliveries(w._id);
    expect(d!.responseStatus).toBe(302);
    expect(d!.lastError).toContain('not followed');
  });

  it('when a secret is rotated, then during the overlap each delivery carries both signatures, and after it only the new one', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created']);
    const rotated = await h
      .api()
      .post(`/api/v1/webhooks/${w._id}/rotate-secret`)
      .set('x-api-key', org.adminKey)
      .send({ overlapHours: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(w.secret);
    expect(rotated.body.secrets).toHaveLength(2);
    await createContact(h, org, { Voornaam: 'Rotated' });
    await h.jobs.drain();
    expect(String(r.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(w.secret, r.received[0]!)).toBe(true);
    expect(verifiesWith(rotated.body.secret, r.received[0]!)).toBe(true);
    h.clock.advance(2 * 3_600_000 + 1);
    await createContact(h, org, { Voornaam: 'After' });
    await h.jobs.drain();
    expect(verifiesWith(rotated.body.secret, r.received[1]!)).toBe(true);
    expect(verifiesWith(w.secret, r.received[1]!)).toBe(false);
  });

  it('when a delivery is redelivered, then the same event is sent again and logged', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created']);
    await createContact(h, org, { Voornaam: 'Again' });
    await h.jobs.drain();
    const [d] = await deliveries(w._id);
    const again = await h
      .api()
      .post(`/api/v1/webhooks/deliveries/${d!._id}/redeliver`)
      .set('x-api-key', org.adminKey);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(expect.objectContaining({ _id: d!._id, status: 'pending' }));
    const twice = await h
      .api()
      .post(`/api/v1/webhooks/deliveries/${d!._id}/redeliver`)
      .set('x-api-key', org.adminKey);
    expect(twice.status).toBe(409);
    await h.jobs.drain();
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([d!.eventId, d!.eventId]);
    const [after] = await deliveries(w._id);
    expect(after).toEqual(expect.objectContaining({ status: 'succeeded', attempts: 2 }));
    expect(after!.request!.body).toBe(r.received[1]!.raw);
    const unknown = await h
      .api()
      .post(`/api/v1/webhooks/deliveries/${unknownId}/redeliver`)
      .set('x-api-key', org.adminKey);
    expect(unknown.status).toBe(404);
  });

  it('when an action’s first event fails, then its later events wait, and arrive in order once it succeeds', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, [
      'sessionrequest.opened',
      'session.submitted',
      'sessionrequest.completed',
    ]);
    const { code } = await newAction('ORDER-1');
    r.answer({ status: 500 }, { status: 500 });
    await submitAsContact(h, code);
    await h.jobs.drain();
    const opened = async () =>
      (await deliveries(w._id)).find((x) => x.eventType === 'sessionrequest.opened')!;
    h.clock.set(new Date((await opened()).nextAttemptAt!));
    await h.jobs.drain();
    // The second retry is minutes away; the later deliveries' own first look (a minute on) comes first
    // and must not send them ahead of it.
    const retry = new Date((await opened()).nextAttemptAt!);
    h.clock.advance(61_000);
    expect(h.clock.now().getTime()).toBeLessThan(retry.getTime());
    await h.jobs.drain();
    expect(r.received.map((x) => x.body.type)).toEqual(['sessionrequest.opened', 'sessionrequest.opened']);
    h.clock.set(retry);
    // The success wakes the next delivery in its own commit: on a busy server that may land after the
    // drain looked for due jobs, so drain again until the chain has run (its order is what is checked).
    await until(async () => {
      await h.jobs.drain();
      return r.received.length >= 5;
    });
    expect(r.received.map((x) => x.body.type)).toEqual([
      'sessionrequest.opened',
      'sessionrequest.opened',
      'sessionrequest.opened',
      'session.submitted',
      'sessionrequest.completed',
    ]);
  });

  it('when every attempt fails, then the delivery fails after the last one and the subject’s next event goes', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created', 'customer.updated']);
    r.answer(...Array.from({ length: webhookDeliveryJob.maxAttempts }, () => ({ status: 503 })));
    const contact = await createContact(h, org, { Voornaam: 'Never' });
    await h
      .api()
      .patch(`/api/v1/customers/${contact}`)
      .set('x-api-key', org.adminKey)
      .send({ data: { Gemeente: 'Gent' } });
    await h.jobs.drain();
    const created = async () => (await deliveries(w._id)).find((x) => x.eventType === 'customer.created')!;
    for (let i = 1; i < webhookDeliveryJob.maxAttempts; i++) {
      h.clock.set(new Date((await created()).nextAttemptAt!));
      await h.jobs.drain();
    }
    expect(await created()).toEqual(
      expect.objectContaining({
        status: 'failed',
        attempts: webhookDeliveryJob.maxAttempts,
        nextAttemptAt: null,
      }),
    );
    // Each retry waited for its time: the intervals follow the schedule (±10 %).
    const times = r.received.filter((x) => x.body.type === 'customer.created').map((x) => x.at.getTime());
    expect(times).toHaveLength(webhookDeliveryJob.maxAttempts);
    times.slice(1).forEach((t, i) => {
      expect(t - times[i]!).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[i]! * 0.9);
      expect(t - times[i]!).toBeLessThanOrEqual(RETRY_SCHEDULE_MS[i]! * 1.1);
    });
    expect(r.received.at(-1)!.body.type).toBe('customer.updated');
    const updated = (await deliveries(w._id)).find((x) => x.eventType === 'customer.updated')!;
    expect(updated.status).toBe('succeeded');
  });

  it('when an endpoint answers a large or binary body, then at most 4 KiB is kept, as text', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created']);
    r.answer({ status: 200, body: `a\u0000b${'x'.repeat(10_000)}` });
    await createContact(h, org, { Voornaam: 'Binary' });
    await h.jobs.drain();
    const [d] = (await h.api().get(`/api/v1/webhooks/${w._id}/deliveries`).set('x-api-key', org.adminKey))
      .body.deliveries as { status: string; responseBody: string }[];
    expect(d!.status).toBe('succeeded');
    expect(d!.responseBody.startsWith('a\uFFFDb')).toBe(true);
    expect(d!.responseBody.length).toBeLessThanOrEqual(4096);
  });

  it('when an endpoint fails for 3 days, then it is disabled, its queued deliveries are cancelled and the administrators are e-mailed', async () => {
    const r = await receiver();
    const w = await subscribe(r.url, ['customer.created']);
    r.answer(...Array.from({ length: 40 }, () => ({ status: 500 })));
    for (let day = 0; day < 4; day++) {
      await createContact(h, org, { Voornaam: `Day ${day}` });
      await h.jobs.drain();
      h.clock.advance(86_400_000);
      await h.jobs.drain();
    }
    const got = await h.api().get(`/api/v1/webhooks/${w._id}`).set('x-api-key', org.adminKey);
    expect(got.body.enabled).toBe(false);
    expect(got.body.disabledReason).toContain('every delivery failed from');
    const all = await deliveries(w._id);
    expect(all.some((x) => x.status === 'cancelled')).toBe(true);
    const before = r.received.length;
    await createContact(h, org, { Voornaam: 'While disabled' });
    await h.jobs.drain();
    expect(r.received).toHaveLength(before);
    const latest = (await deliveries(w._id))[0]!;
    expect(latest).toEqual(expect.objectContaining({ status: 'cancelled', attempts: 0 }));
    expect(latest.lastError).toContain('redeliver once it is enabled again');
    const outbox = path.join(h.dataDir, 'outbox');
    const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    expect(mails.filter((m) => m.includes('A webhook was disabled after failing for 3 days'))).toHaveLength(
      1,
    );
    // Enabling it again clears the streak; a cancelled delivery can then be sent.
    const enabled = await h
      .api()
      .patch(`/api/v1/webhooks/${w._id}`)
      .set('x-api-key', org.adminKey)
      .send({ enabled: true });
    expect(enabled.body).toEqual(
      expect.objectContaining({ enabled: true, disabledReason: null, failingSince: null }),
    );
    const again = await h
      .api()
      .post(`/api/v1/webhooks/deliveries/${latest._id}/redeliver`)
      .set('x-api-key', org.adminKey);
    expect(again.status).toBe(202);
    await h.jobs.drain();
    expect(r.received.at(-1)!.body.id).toBe(again.body.eventId);
  });

  it('when one campaign visitor’s delivery fails, then another visitor’s is not held up behind it', async () => {
    const r = await receiver();
    await subscribe(r.url, ['session.submitted']);
    const template = await createReportTemplate(h, org);
    const campaign = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'campaign', questionListIds: [template] });
    expect(campaign.status).toBe(201);
    const visit = async (name: string) => {
      const agent = request.agent(h.server);
      const first = await agent.get(`/action/${campaign.body.code}`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
      const post = (fields: [string, string][], suffix = '') =>
        agent
          .post(`/action/${campaign.body.code}${suffix}?lang=nl`)
          .type('form')
          .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
      const started = await post(
        [
          ['firstName', name],
          ['lastName', 'Visitor'],
          ['email', `${name.toLowerCase()}@example.test`],
        ],
        '/start',
      );
      expect(started.status).toBe(303);
      expect(
        (
          await post([
            ['step', '0'],
            ['nav', 'next'],
            ['q.q', name],
          ])
        ).status,
      ).toBe(303);
      expect((await post([], '/submit')).status).toBe(303);
    };
    r.answer({ status: 500 });
    await visit('Anna');
    await h.jobs.drain();
    await visit('Bert');
    await h.jobs.drain();
    const names = r.received.map((x) => (x.body.data as { customer: { _id: string } }).customer._id);
    expect(r.received).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
  });

  it('when an event is recorded, then the delivery job its fan-out queues matches the delivery job type', async () => {
    const r = await receiver();
    await subscribe(r.url, ['customer.created']);
    await createContact(h, org, { Voornaam: 'Typed' });
    const [job] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ kind: string; max_attempts: number; payload: unknown }>(
        tx,
        sql`SELECT kind, max_attempts, payload FROM jobs WHERE kind = 'webhook-delivery' AND status = 'pending'`,
      ),
    );
    expect(job).toEqual({
      kind: webhookDeliveryJob.kind,
      max_attempts: webhookDeliveryJob.maxAttempts,
      payload: {},
    });
    expect(() => webhookDeliveryJob.read(job!.payload)).not.toThrow();
  });
});

describe('address safety', () => {
  let strict: Harness;
  let strictOrg: TestOrg;
  let calls = 0;
  // hooks.example.com resolves to a public address at registration, then to 127.0.0.1 (DNS rebinding);
  // inner.example.com always resolves to 127.0.0.1.
  const lookup = ((host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    const address =
      host === 'inner.example.com' || (host === 'hooks.example.com' && calls++ > 0)
        ? '127.0.0.1'
        : '93.184.216.34';
    if (options.all) cb(null, [{ address, family: 4 }]);
    else cb(null, address, 4);
  }) as unknown as LookupFunction;

  beforeAll(async () => {
    strict = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_TIMEOUT_SECONDS: '1' }, { lookup });
    strictOrg = await createOrg(strict);
  });
  afterAll(() => strict.close());

  it('when a URL names or resolves to a private, loopback or metadata address, then it is refused at registration', async () => {
    for (const [url, problem] of [
      ['http://127.0.0.1:9/hook', '127.0.0.1 is a loopback address'],
      ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'],
      ['http://169.254.0.1/', '169.254.0.1 is a link-local address'],
      ['http://[::ffff:127.0.0.1]/x', 'loopback'],
      ['http://inner.example.com/hook', 'inner.example.com resolves to 127.0.0.1, a loopback address'],
    ]) {
      const res = await strict
        .api()
        .post('/api/v1/webhooks')
        .set('x-api-key', strictOrg.adminKey)
        .send({ url, events: ['*'] });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body.details[0]).toEqual(expect.objectContaining({ field: 'url' }));
      expect(res.body.details[0].message).toContain(problem);
    }
  });

  it('when a host name resolves to 127.0.0.1 at delivery time, then the connection is refused and nothing is sent', async () => {
    const r = await startWebhookReceiver();
    receivers.push(r);
    const created = await strict
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', strictOrg.adminKey)
      .send({ url: `http://hooks.example.com:${r.port}/hook`, events: ['customer.created'] });
    expect(created.status).toBe(201);
    await strict
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', strictOrg.adminKey)
      .send({ data: { Voornaam: 'X' } });
    await strict.jobs.drain();
    expect(r.received).toHaveLength(0);
    const list = await strict
      .api()
      .get(`/api/v1/webhooks/${created.body._id}/deliveries`)
      .set('x-api-key', strictOrg.adminKey);
    expect(list.body.deliveries[0].lastError).toBe(
      'refused: hooks.example.com resolves to 127.0.0.1, a loopback address',
    );
  });
});
