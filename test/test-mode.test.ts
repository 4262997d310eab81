import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { asBuffer, pdfsig, pdfText, samplePdf } from './support/binary';
import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startHttpReceiver, startSmtpServer, startWebhookReceiver } from './support/peers';

// Issue 31: test keys beside live ones, records kept apart by the database, messages kept in the test
// inbox instead of sent.
let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let smsProvider: Awaited<ReturnType<typeof startHttpReceiver>>;
let testKey: string;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  smsProvider = await startHttpReceiver();
  hooks = await startWebhookReceiver();
  h = await startHarness({
    SMTP_URL: smtp.url,
    SMS_PROVIDER_URL: smsProvider.url,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  org = await createOrg(h, 'Kantoor Test');
  const made = await h
    .api()
    .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
    .set('x-api-key', org.adminKey)
    .send({ name: 'CRM sandbox', mode: 'test' });
  expect(made.status).toBe(201);
  testKey = made.body.apiKey;
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await smsProvider.close();
  await hooks.close();
});

beforeEach(() => {
  smtp.received.length = 0;
  smsProvider.received.length = 0;
});

const api = () => h.api();
const as = (key: string) => ({
  get: (path: string) => api().get(`/api/v1${path}`).set('x-api-key', key),
  post: (path: string, body: object) => api().post(`/api/v1${path}`).set('x-api-key', key).send(body),
  del: (path: string) => api().delete(`/api/v1${path}`).set('x-api-key', key),
});

async function quicksign(key: string, email: string, phone?: string) {
  const contact = await as(key).post('/customers', {
    data: { Voornaam: 'Test', Achternaam: 'Persoon', Email: email, ...(phone ? { Telefoon: phone } : {}) },
  });
  expect(contact.status).toBe(201);
  const upload = await api()
    .post('/api/v1/files')
    .set('x-api-key', key)
    .attach('file', await samplePdf('Mandate', 1), 'Mandate.pdf');
  expect(upload.status).toBe(201);
  const action = await as(key).post('/sessionrequests', {
    type: 'quicksign',
    customerId: contact.body._id,
    document: { fileId: upload.body._id, title: 'Mandaat 2026' },
    language: 'en',
    notificationEmail: { send: true },
    ...(phone ? { notificationSms: { send: true } } : {}),
  });
  expect(action.status).toBe(201);
  return { contactId: contact.body._id as string, action: action.body };
}

describe('test keys', () => {
  it('when an administrator makes a test key, then it is adk_test_…, says livemode false, and is listed apart from the live keys', async () => {
    expect(testKey).toMatch(/^adk_test_[0-9A-Za-z]{38}$/);
    const live = await as(org.adminKey).get('/admin/apikeys');
    expect(live.status).toBe(200);
    expect(live.body.apiKeys.map((k: { livemode: boolean }) => k.livemode)).toEqual([true]);
    const test = await as(org.adminKey).get('/admin/apikeys?mode=test');
    expect(test.body.apiKeys).toEqual([
      expect.objectContaining({
        name: 'CRM sandbox',
        userId: org.adminId,
        livemode: false,
        prefix: testKey.slice(0, 17),
      }),
    ]);
    // From test mode the test keys are the organisation's own; the live ones are out of reach.
    const own = await as(testKey).get('/admin/apikeys');
    expect(own.body.apiKeys).toEqual([expect.objectContaining({ name: 'CRM sandbox', livemode: false })]);
    const reach = await as(testKey).get('/admin/apikeys?mode=live');
    expect(reach.status).toBe(403);
    expect(reach.body.error).toContain('Live records are out of reach of test credentials');
  });

  it('when a test key and a live key make contacts, then neither sees the other’s', async () => {
    const liveContact = await as(org.adminKey).post('/customers', { data: { Voornaam: 'Live' } });
    const testContact = await as(testKey).post('/customers', { data: { Voornaam: 'Test' } });
    expect([liveContact.status, testContact.status]).toEqual([201, 201]);
    const liveIds = (await as(org.adminKey).get('/customers')).body.customers.map(
      (c: { _id: string }) => c._id,
    );
    const testIds = (await as(testKey).get('/customers')).body.customers.map((c: { _id: string }) => c._id);
    expect(liveIds).toContain(liveContact.body._id);
    expect(liveIds).not.toContain(testContact.body._id);
    expect(testIds).toContain(testContact.body._id);
    expect(testIds).not.toContain(liveContact.body._id);
    expect((await as(testKey).get(`/customers/${liveContact.body._id}`)).status).toBe(404);
    expect((await as(org.adminKey).get(`/customers/${testContact.body._id}`)).status).toBe(404);
  });

  it('when the live user is deactivated, then their test key is refused too, and it comes back with them', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const made = await as(org.adminKey).post(`/admin/users/${adviser.userId}/apikeys`, {
      name: 'adviser sandbox',
      mode: 'test',
    });
    const key = made.body.apiKey as string;
    expect((await as(key).get('/customers')).status).toBe(200);
    // An adviser's test key may do what the adviser may: not administer.
    expect((await as(key).get('/admin/apikeys')).status).toBe(403);
    const off = await as(org.adminKey).post(`/admin/users/${adviser.userId}/deactivate`, {});
    expect(off.status).toBe(200);
    const refused = await as(key).get('/customers');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('User account is deactivated');
    const on = await as(org.adminKey).post(`/admin/users/${adviser.userId}/reactivate`, {});
    expect(on.status).toBe(200);
    expect((await as(key).get('/customers')).status).toBe(200);
  });

  it('when a live administrator revokes a test key, then it is refused from the next request on', async () => {
    const made = await as(org.adminKey).post(`/admin/users/${org.adminId}/apikeys`, {
      name: 'short',
      mode: 'test',
    });
    const revoked = await as(org.adminKey).del(`/admin/users/${org.adminId}/apikeys/${made.body._id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ livemode: false, revokedAt: expect.any(String) });
    expect((await as(made.body.apiKey).get('/customers')).status).toBe(401);
  });
});

describe('staff and sign-in in test mode', () => {
  it('when a test key asks to change staff users, sign-in or the organisation’s seal, then every such route answers 403 naming live mode, and nothing changes', async () => {
    const document = (await api().get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string; description?: string }>>;
    };
    const liveOnly = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.description?.includes('live credentials only (test credentials get 403)'))
        .map(([method, op]) => ({ path, method, id: op.operationId })),
    );
    expect(liveOnly.map((o) => o.id).sort()).toEqual(
      [
        'createSsoProvider',
        'createUser',
        'deactivateUser',
        'deleteOrganisationSeal',
        'deleteSsoProvider',
        'deleteUser',
        'reactivateUser',
        'replaceOrganisationSeal',
        'sendUserPasswordLink',
        'setUserPassword',
        'signOutUser',
        'syncSsoProvider',
        'updateSsoProvider',
        'updateSsoSettings',
        'updateUser',
      ].sort(),
    );
    for (const { path, method } of liveOnly) {
      const url = path
        .replace('/api/v1', '')
        .replace('{userId}', org.adminId)
        .replace('{providerId}', '01900000-0000-7000-8000-000000000000');
      const res = await api()
        [method as 'post'](`/api/v1${url}`)
        .set('x-api-key', testKey)
        .send({ name: 'Changed', email: 'new@example.test', groups: ['adviser'], password: 'x'.repeat(20) });
      expect({ method, path, status: res.status, error: res.body.error }).toEqual({
        method,
        path,
        status: 403,
        error: expect.stringMatching(
          /^(Staff users are managed|Sign-in is set up) in live mode: use a live key or client; test credentials cannot$|^The organisation’s seal signs live documents: use a live key or client; test credentials cannot$/,
        ),
      });
    }
    // The administrator is untouched, in both modes; reads still work from the test key.
    const admin = await as(testKey).get(`/admin/users/${org.adminId}`);
    expect(admin.body).toMatchObject({ _id: org.adminId, status: 'active', groups: ['administrator'] });
    for (const key of [org.adminKey, testKey]) {
      const { users } = (await as(key).get('/admin/users')).body as { users: { email: string }[] };
      expect(users.map((u) => u.email)).not.toContain('new@example.test');
    }
    expect((await as(testKey).get('/admin/sso/providers')).status).toBe(200);
  });
});

describe('rate limits and idempotency in test mode', () => {
  it('when a test key repeats a POST with its Idempotency-Key, then the answer is replayed; the same key from a live key is its own', async () => {
    const key = `test-mode-${Date.now()}`;
    const post = (apiKey: string) =>
      api()
        .post('/api/v1/customers')
        .set('x-api-key', apiKey)
        .set('Idempotency-Key', key)
        .send({ data: { Voornaam: 'Eens' } });
    const first = await post(testKey);
    const again = await post(testKey);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body._id).toBe(first.body._id);
    const live = await post(org.adminKey);
    expect(live.status).toBe(201);
    expect(live.headers['idempotent-replayed']).toBeUndefined();
    expect(live.body._id).not.toBe(first.body._id);
  });

  it('when a test key passes its per-minute limit, then 429 with Retry-After, and the live key keeps its own budget', async () => {
    // Fresh keys: the limit counts per key, in the database, over the minute.
    const fresh = async (mode: 'live' | 'test') =>
      (await as(org.adminKey).post(`/admin/users/${org.adminId}/apikeys`, { name: `limited ${mode}`, mode }))
        .body.apiKey as string;
    const [testOne, liveOne] = [await fresh('test'), await fresh('live')];
    const limited = await startHarness({ RATE_LIMIT_API_PER_MINUTE: '3' }, { database: h.database });
    try {
      const get = (apiKey: string) => limited.api().get('/api/v1/portfolios').set('x-api-key', apiKey);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(testOne)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await get(testOne);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toMatchObject({ success: false, status: 429 });
      expect((await get(liveOne)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the test inbox', () => {
  it('when a test action is sent by e-mail and SMS, then nothing leaves and the test inbox has both, with the link', async () => {
    const { action } = await quicksign(testKey, 'sandbox@example.test', '+32470123456');
    await h.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(smsProvider.received).toEqual([]);
    const inbox = await as(testKey).get(`/test/messages?subjectId=${action._id}`);
    expect(inbox.status).toBe(200);
    const byChannel = Object.fromEntries(inbox.body.messages.map((m: { channel: string }) => [m.channel, m]));
    expect(byChannel.email).toMatchObject({
      to: 'sandbox@example.test',
      kind: 'notification',
      subject: 'Kantoor Test asks you to sign “Mandaat 2026”',
      links: [action.url],
      code: null,
    });
    expect(byChannel.email.html).toContain('>Open the document</a>');
    expect(byChannel.sms).toMatchObject({ to: '+32470123456', links: [action.url] });
    const one = await as(testKey).get(`/test/messages/${byChannel.email._id}`);
    expect(one.body).toEqual(byChannel.email);
  });

  it('when a live key asks for the test inbox, then 403 says it is for test credentials', async () => {
    const res = await as(org.adminKey).get('/test/messages');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403 });
    expect(res.body.error).toContain('Only in test mode');
  });

  it('when a live action is sent, then it does leave, and the test inbox does not have it', async () => {
    const { action } = await quicksign(org.adminKey, 'live@example.test');
    await h.jobs.drain();
    expect(smtp.received.map((m) => m.to)).toEqual([['live@example.test']]);
    const inbox = await as(testKey).get(`/test/messages?subjectId=${action._id}`);
    expect(inbox.body.messages).toEqual([]);
  });

  it('when the inbox is paged, then each page is older than the last and the filters hold', async () => {
    for (let i = 0; i < 3; i++) await quicksign(testKey, 'paged@example.test');
    await h.jobs.drain();
    const first = await as(testKey).get('/test/messages?to=PAGED@example.test&limit=2');
    expect(first.body.messages).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await as(testKey).get(
      `/test/messages?to=paged@example.test&limit=2&startingAfter=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.body.messages).toHaveLength(1);
    expect(second.body.hasMore).toBe(false);
    const all = [...first.body.messages, ...second.body.messages];
    expect(new Set(all.map((m: { _id: string }) => m._id)).size).toBe(3);
    const wrong = await as(testKey).get(
      `/test/messages?to=other@example.test&startingAfter=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(wrong.status).toBe(400);
  });
});

/** A signer's phone: its cookies, the page's CSRF token, and form posts as the page makes them. */
function signerPhone(link: string) {
  const path = new URL(link).pathname;
  const agent = request.agent(h.server);
  let csrf = '';
  const page = async () => {
    const res = await agent.get(`${path}?lang=en`);
    csrf = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? csrf;
    return res;
  };
  const post = (to: string, fields: [string, string][]) =>
    agent
      .post(`${path}${to}?lang=en`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return { page, post };
}

describe('a whole signing flow in test mode', () => {
  it('when a test key’s quicksign is signed with the code and link from the test inbox, then it completes with no message sent, a test webhook (livemode false), and a PDF marked TEST sealed with the test seal', async () => {
    h.clock.set(new Date()); // the verifier below checks the signature's time against its own clock
    const hook = await as(testKey).post('/webhooks', { url: hooks.url, events: ['*'] });
    expect(hook.status).toBe(201);
    const { action } = await quicksign(testKey, 'signer@example.test');
    await h.jobs.drain();
    const inbox = async () =>
      (await as(testKey).get('/test/messages?to=signer@example.test')).body.messages as {
        kind: string;
        links: string[];
        code: string | null;
        subject: string;
        attachments: { filename: string }[];
      }[];
    const invitation = (await inbox()).find((m) => m.kind === 'notification')!;
    expect(invitation.links).toEqual([action.url]);
    const phone = signerPhone(invitation.links[0]!);
    expect((await phone.page()).text).toContain('Mandaat 2026');
    expect((await phone.post('/sign/code', [['channel', 'email']])).status).toBe(303);
    await h.jobs.drain();
    const codeMessage = (await inbox()).find((m) => m.kind === 'signing-code')!;
    expect(codeMessage.code).toMatch(/^\d{6}$/);
    expect(codeMessage.subject).toContain(codeMessage.code);
    expect((await phone.post('/sign/verify', [['code', codeMessage.code!]])).status).toBe(303);
    await phone.page();
    const signed = await phone.post('/sign', [
      ['mark', 'typed'],
      ['typedName', 'Test Persoon'],
      ['consent', 'yes'],
    ]);
    expect(signed.status).toBe(303);
    await h.jobs.drain();

    const done = await as(testKey).get(`/sessionrequests/${action._id}`);
    expect(done.body.status).toBe('completed');
    // Nothing left the service: not the invitation, the code or the signed copy.
    expect(smtp.received).toEqual([]);
    expect(smsProvider.received).toEqual([]);
    const copy = (await inbox()).find((m) => m.kind === 'signed-copy')!;
    expect(copy.attachments).toEqual([expect.objectContaining({ filename: 'Mandaat 2026 (signed).pdf' })]);

    // The webhooks of test records went out (to the test webhook), signed, each saying livemode false.
    const completed = hooks.received.find((r) => r.body.type === 'sessionrequest.completed')!;
    expect(completed.body).toMatchObject({
      livemode: false,
      data: { sessionRequest: { _id: action._id } },
    });
    expect(hooks.received.every((r) => r.body.livemode === false)).toBe(true);
    const verified = new Webhook(hook.body.secret).verify(
      completed.raw,
      completed.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ livemode: false });
    // A ping of the test webhook says livemode false too.
    const ping = await as(testKey).post(`/webhooks/${hook.body._id}/test`, {});
    expect(ping.body).toMatchObject({ delivered: true });
    const pinged = hooks.received.find((r) => r.body.type === 'webhook.test')!;
    expect(pinged.body).toMatchObject({ livemode: false, data: { webhookId: hook.body._id } });
    const events = await as(testKey).get('/events');
    expect(events.body.events.map((e: { livemode: boolean }) => e.livemode)).not.toContain(true);

    // The signed PDF: marked on every page, sealed with the test seal, and the verification says test.
    const sessions = await as(testKey).get(`/sessions?sessionRequestId=${action._id}`);
    const document = sessions.body.sessions[0].documents[0] as { fileId: string; fileUrl: string };
    const file = await asBuffer(api().get(document.fileUrl).set('x-api-key', testKey));
    const pdf = file.body as Buffer;
    const text = await pdfText(pdf);
    expect(text.match(/TEST — no legal value/g)?.length).toBeGreaterThanOrEqual(2 * 3);
    const report = await pdfsig(pdf);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('ActionDesk TEST seal - no legal value');
    const verification = await as(testKey).get(`/files/${document.fileId}/verification`);
    expect(verification.body).toMatchObject({ signed: true, valid: true, livemode: false });
    expect(verification.body.signatures[0].reason).toMatch(/^TEST - no legal value\. Signed by Test Persoon/);
    expect(verification.body.signatures[0].certificate).toMatchObject({ testSeal: true, thisService: true });
    // The same file sent to a live key's verification is still a test document.
    const live = await api()
      .post('/api/v1/files/verify')
      .set('x-api-key', org.adminKey)
      .attach('file', pdf, 'signed.pdf');
    expect(live.body).toMatchObject({ valid: true, livemode: false });
  });
});

describe('fast-forward', () => {
  it('when a test asks for the next reminder, then it is due now and lands in the test inbox, and then the second; a live key may not', async () => {
    const contact = await as(testKey).post('/customers', {
      data: { Voornaam: 'Rem', Email: 'remind@example.test' },
    });
    const upload = await api()
      .post('/api/v1/files')
      .set('x-api-key', testKey)
      .attach('file', await samplePdf('Reminded', 1), 'Reminded.pdf');
    const action = await as(testKey).post('/sessionrequests', {
      type: 'quicksign',
      customerId: contact.body._id,
      document: { fileId: upload.body._id, title: 'Herinnerd' },
      language: 'en',
      notificationEmail: { send: true },
      reminderSchedule: { reminder1Days: 3, reminder2Days: 7 },
      expiresAt: new Date(h.clock.now().getTime() + 30 * 86_400_000).toISOString(),
    });
    expect(action.status).toBe(201);
    await h.jobs.drain();
    const purposes = async () =>
      (
        (await as(testKey).get(`/test/messages?subjectId=${action.body._id}`)).body.messages as {
          subject: string;
        }[]
      ).length;
    expect(await purposes()).toBe(1);

    const live = await api()
      .post(`/api/v1/test/sessionrequests/${action.body._id}/fast-forward`)
      .set('x-api-key', org.adminKey)
      .send({ to: 'next-reminder' });
    expect(live.status).toBe(403);

    const first = await as(testKey).post(`/test/sessionrequests/${action.body._id}/fast-forward`, {
      to: 'next-reminder',
    });
    expect(first.status).toBe(200);
    const reminder1 = first.body.notifications.find((n: { purpose: string }) => n.purpose === 'reminder1');
    expect(reminder1).toMatchObject({ status: 'pending', scheduledFor: h.clock.now().toISOString() });
    await h.jobs.drain();
    expect(await purposes()).toBe(2);
    await as(testKey).post(`/test/sessionrequests/${action.body._id}/fast-forward`, { to: 'next-reminder' });
    await h.jobs.drain();
    expect(await purposes()).toBe(3);
    const none = await as(testKey).post(`/test/sessionrequests/${action.body._id}/fast-forward`, {
      to: 'next-reminder',
    });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('No reminder of the action is still to come');

    const expired = await as(testKey).post(`/test/sessionrequests/${action.body._id}/fast-forward`, {
      to: 'expiry',
    });
    expect(expired.status).toBe(200);
    await h.jobs.drain();
    expect((await as(testKey).get(`/sessionrequests/${action.body._id}`)).body.status).toBe('expired');
    const again = await as(testKey).post(`/test/sessionrequests/${action.body._id}/fast-forward`, {
      to: 'expiry',
    });
    expect(again.status).toBe(409);
  });
});

describe('a test OAuth client', () => {
  it('when a test key registers a client, then its client-credentials token works on test records only', async () => {
    const made = await as(testKey).post('/admin/oauth/clients', {
      name: 'Partner sandbox',
      grants: ['client_credentials'],
      scopes: ['read', 'create'],
    });
    expect(made.status).toBe(201);
    expect(made.body.livemode).toBe(false);
    expect((await as(testKey).get(`/admin/oauth/clients/${made.body._id}`)).body.livemode).toBe(false);
    const live = await as(org.adminKey).post('/admin/oauth/clients', {
      name: 'Partner live',
      grants: ['client_credentials'],
      scopes: ['read'],
    });
    expect(live.body.livemode).toBe(true);
    const token = await api()
      .post('/api/v1/auth/oauth/token')
      .type('form')
      .auth(made.body.clientId, made.body.clientSecret)
      .send({ grant_type: 'client_credentials' });
    expect(token.status).toBe(200);
    const bearer = `Bearer ${token.body.access_token}`;
    const contact = await api()
      .post('/api/v1/customers')
      .set('Authorization', bearer)
      .send({ data: { Voornaam: 'OAuth' } });
    expect(contact.status).toBe(201);
    expect((await as(testKey).get(`/customers/${contact.body._id}`)).status).toBe(200);
    expect((await as(org.adminKey).get(`/customers/${contact.body._id}`)).status).toBe(404);
    const inbox = await api().get('/api/v1/test/messages').set('Authorization', bearer);
    expect(inbox.status).toBe(200);
    // Not a client of the live organisation.
    expect((await as(org.adminKey).get(`/admin/oauth/clients/${made.body._id}`)).status).toBe(404);
  });
});

describe('wiping test data', () => {
  it('when a test administrator wipes, then every test record goes, the live ones stay, and the test keys still work', async () => {
    const liveContact = await as(org.adminKey).post('/customers', { data: { Voornaam: 'Blijft' } });
    await quicksign(testKey, 'wiped@example.test');
    await h.jobs.drain();
    expect((await as(testKey).get('/customers')).body.customers.length).toBeGreaterThan(0);

    expect((await as(org.adminKey).del('/test/data')).status).toBe(403);
    const wiped = await as(testKey).del('/test/data');
    expect(wiped.status).toBe(200);
    expect(wiped.body.deleted).toMatchObject({
      customers: expect.any(Number),
      session_requests: expect.any(Number),
      files: expect.any(Number),
    });
    expect(wiped.body.deleted.customers).toBeGreaterThan(0);
    expect((await as(testKey).get('/customers')).body.customers).toEqual([]);
    expect((await as(testKey).get('/sessionrequests')).body.sessionRequests).toEqual([]);
    expect((await as(testKey).get('/test/messages')).body.messages).toEqual([]);
    expect((await as(testKey).get('/webhooks')).body.webhooks).toEqual([]);
    // The keys, users and a default portfolio are there: work goes on at once.
    const again = await as(testKey).post('/customers', { data: { Voornaam: 'Opnieuw' } });
    expect(again.status).toBe(201);
    expect((await as(testKey).get('/admin/apikeys')).body.apiKeys.length).toBeGreaterThan(0);
    expect((await as(org.adminKey).get(`/customers/${liveContact.body._id}`)).status).toBe(200);
  });
});
