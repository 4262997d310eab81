import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { generateSealKey } from '../src/platform/signing/certificate';
import { samplePdf, samplePng } from './support/binary';
import {
  basicAuth,
  completeAsContact,
  createContact,
  createOrg,
  createTemplate,
  createUserWithKey,
  type TestOrg,
  templateBody,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';

/**
 * Walks the OpenAPI document: every operation of the API that changes something is called once, the
 * way a client would (each POST with an Idempotency-Key), and must leave at least one event in the
 * audit trail under its request id. A new operation without a scenario here fails the first test.
 */
let h: Harness;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await startHarness({
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_SECONDS: '1',
  });
  receiver = await startWebhookReceiver(() => h.clock.now());
  org = await createOrg(h, 'Kantoor Walk');
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

/** Operations that change nothing, and why. */
const readsOnly: Record<string, string> = {
  'POST /api/v1/files/verify': 'checks the signatures of the PDF sent; stores nothing',
  'POST /api/v1/auth/oauth/introspect': 'answers what a token is; changes nothing',
  'POST /api/v1/auth/oauth/authorize': 'a staff page (the consent form), walked with the pages',
};

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

const ids: Record<string, string> = {};
const as = (method: 'post' | 'patch' | 'put' | 'delete', path: string, apiKey = org.adminKey) => {
  const r = h.api()[method](path).set('x-api-key', apiKey);
  return method === 'post' ? r.set('Idempotency-Key', randomUUID()) : r;
};

const complete = (id: string) => completeAsContact(h, org.organisationId, id);

/** One call per operation, in an order where each finds what it needs. */
const scenarios: [string, () => Promise<Response>][] = [
  ['POST /api/v1/customers', () => as('post', '/api/v1/customers').send({ data: { Voornaam: 'Walk' } })],
  [
    'PATCH /api/v1/customers/{customerId}',
    async () => {
      ids.contact = await createContact(h, org, { Voornaam: 'Patch' });
      return as('patch', `/api/v1/customers/${ids.contact}`).send({ data: { Gemeente: 'Leuven' } });
    },
  ],
  [
    'DELETE /api/v1/customers/{customerId}',
    async () => as('delete', `/api/v1/customers/${await createContact(h, org, { Voornaam: 'Gone' })}`),
  ],
  ['POST /api/v1/portfolios', () => as('post', '/api/v1/portfolios').send({ name: 'Gent' })],
  [
    'PATCH /api/v1/admin/rate-limits',
    () => as('patch', '/api/v1/admin/rate-limits').send({ apiPerMinute: 5000 }),
  ],
  [
    'PATCH /api/v1/admin/organisation/brand',
    () => as('patch', '/api/v1/admin/organisation/brand').send({ brandName: 'Walk', colour: '#1a5e20' }),
  ],
  [
    'PUT /api/v1/admin/organisation/brand/logo',
    async () =>
      as('put', '/api/v1/admin/organisation/brand/logo').attach('file', await samplePng(8, 8), 'logo.png'),
  ],
  [
    'DELETE /api/v1/admin/organisation/brand/logo',
    () => as('delete', '/api/v1/admin/organisation/brand/logo'),
  ],
  [
    'PUT /api/v1/admin/organisation/seal',
    () => {
      const seal = generateSealKey('Walk seal', h.clock.now());
      return as('put', '/api/v1/admin/organisation/seal').send({
        pkcs12: seal.p12.toString('base64'),
        password: seal.passphrase,
      });
    },
  ],
  ['DELETE /api/v1/admin/organisation/seal', () => as('delete', '/api/v1/admin/organisation/seal')],
  [
    'POST /api/v1/admin/users',
    async () => {
      const res = await as('post', '/api/v1/admin/users').send({
        email: 'walk-user@example.test',
        name: 'Walk',
        groups: ['adviser'],
      });
      ids.user = res.body._id;
      return res;
    },
  ],
  [
    'PATCH /api/v1/admin/users/{userId}',
    () => as('patch', `/api/v1/admin/users/${ids.user}`).send({ name: 'Renamed' }),
  ],
  [
    'POST /api/v1/admin/users/{userId}/deactivate',
    () => as('post', `/api/v1/admin/users/${ids.user}/deactivate`),
  ],
  [
    'POST /api/v1/admin/users/{userId}/reactivate',
    () => as('post', `/api/v1/admin/users/${ids.user}/reactivate`),
  ],
  [
    'POST /api/v1/admin/users/{userId}/sign-out',
    () => as('post', `/api/v1/admin/users/${ids.user}/sign-out`),
  ],
  [
    'POST /api/v1/admin/users/{userId}/apikeys',
    async () => {
      const res = await as('post', `/api/v1/admin/users/${ids.user}/apikeys`).send({ name: 'CRM sync' });
      ids.key = res.body._id;
      return res;
    },
  ],
  [
    'DELETE /api/v1/admin/users/{userId}/apikeys/{keyId}',
    () => as('delete', `/api/v1/admin/users/${ids.user}/apikeys/${ids.key}`),
  ],
  [
    'POST /api/v1/admin/users/{userId}/password-link',
    () => as('post', `/api/v1/admin/users/${ids.user}/password-link`),
  ],
  [
    'PUT /api/v1/admin/users/{userId}/password',
    () =>
      as('put', `/api/v1/admin/users/${ids.user}/password`).send({
        password: 'correct horse battery staple',
      }),
  ],
  [
    'DELETE /api/v1/admin/users/{userId}',
    async () => as('delete', `/api/v1/admin/users/${(await createUserWithKey(h, org, ['adviser'])).userId}`),
  ],
  [
    'POST /api/v1/admin/oauth/clients',
    async () => {
      const res = await as('post', '/api/v1/admin/oauth/clients').send({
        name: 'Partner',
        grants: ['client_credentials'],
        scopes: ['read'],
      });
      ids.client = res.body._id;
      ids.clientId = res.body.clientId;
      return res;
    },
  ],
  [
    'POST /api/v1/admin/oauth/clients/{clientId}/rotate-secret',
    async () => {
      const res = await as('post', `/api/v1/admin/oauth/clients/${ids.client}/rotate-secret`);
      ids.clientSecret = res.body.clientSecret;
      return res;
    },
  ],
  [
    'POST /api/v1/auth/oauth/token',
    async () => {
      const res = await h
        .api()
        .post('/api/v1/auth/oauth/token')
        .type('form')
        .set('Authorization', basicAuth(ids.clientId as string, ids.clientSecret as string))
        .send({ grant_type: 'client_credentials' });
      ids.accessToken = res.body.access_token;
      return res;
    },
  ],
  [
    'POST /api/v1/admin/oauth/clients/{clientId}/tokens/{tokenId}/revoke',
    async () => {
      const tokens = await h
        .api()
        .get(`/api/v1/admin/oauth/clients/${ids.client}/tokens`)
        .set('x-api-key', org.adminKey);
      return as(
        'post',
        `/api/v1/admin/oauth/clients/${ids.client}/tokens/${tokens.body.tokens[0]._id}/revoke`,
      );
    },
  ],
  [
    'POST /api/v1/auth/oauth/revoke',
    async () => {
      const issued = await h
        .api()
        .post('/api/v1/auth/oauth/token')
        .type('form')
        .set('Authorization', basicAuth(ids.clientId as string, ids.clientSecret as string))
        .send({ grant_type: 'client_credentials' });
      return h
        .api()
        .post('/api/v1/auth/oauth/revoke')
        .type('form')
        .set('Authorization', basicAuth(ids.clientId as string, ids.clientSecret as string))
        .send({ token: issued.body.access_token });
    },
  ],
  [
    'POST /api/v1/admin/oauth/clients/{clientId}/revoke-tokens',
    async () => {
      await h
        .api()
        .post('/api/v1/auth/oauth/token')
        .type('form')
        .set('Authorization', basicAuth(ids.clientId as string, ids.clientSecret as string))
        .send({ grant_type: 'client_credentials' });
      return as('post', `/api/v1/admin/oauth/clients/${ids.client}/revoke-tokens`);
    },
  ],
  [
    'POST /api/v1/admin/oauth/clients/{clientId}/disable',
    () => as('post', `/api/v1/admin/oauth/clients/${ids.client}/disable`),
  ],
  [
    'POST /api/v1/admin/oauth/clients/{clientId}/enable',
    () => as('post', `/api/v1/admin/oauth/clients/${ids.client}/enable`),
  ],
  [
    'POST /api/v1/admin/sso/providers',
    async () => {
      const res = await as('post', '/api/v1/admin/sso/providers').send({
        type: 'microsoft',
        tenantId: 'contoso.onmicrosoft.com',
        clientId: 'app-123',
        clientSecret: 's3cret',
        directorySync: true,
      });
      ids.provider = res.body._id;
      return res;
    },
  ],
  [
    'PATCH /api/v1/admin/sso/providers/{providerId}',
    () => as('patch', `/api/v1/admin/sso/providers/${ids.provider}`).send({ enabled: true }),
  ],
  [
    'PATCH /api/v1/admin/sso/settings',
    async () => {
      const off = await as('patch', '/api/v1/admin/sso/settings').send({ passwordSignIn: false });
      expect(off.status).toBe(200);
      return as('patch', '/api/v1/admin/sso/settings').send({ passwordSignIn: true });
    },
  ],
  [
    'POST /api/v1/admin/sso/providers/{providerId}/sync',
    () => as('post', `/api/v1/admin/sso/providers/${ids.provider}/sync`),
  ],
  [
    'DELETE /api/v1/admin/sso/providers/{providerId}',
    () => as('delete', `/api/v1/admin/sso/providers/${ids.provider}`),
  ],
  [
    'POST /api/v1/questionlists',
    async () => {
      const res = await as('post', '/api/v1/questionlists').send({
        name: 'Walk intake',
        supportedLanguages: ['nl'],
        sections: [
          {
            id: 's',
            title: { nl: 'Vraag' },
            questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' } }],
          },
        ],
      });
      ids.template = res.body._id;
      return res;
    },
  ],
  [
    'PATCH /api/v1/questionlists/{questionListId}',
    () => as('patch', `/api/v1/questionlists/${ids.template}`).send({ name: 'Walk intake, renamed' }),
  ],
  [
    'POST /api/v1/files',
    async () => {
      const res = await as('post', '/api/v1/files').attach('file', await samplePdf('Walk'), 'walk.pdf');
      ids.file = res.body._id;
      return res;
    },
  ],
  [
    'DELETE /api/v1/files/{fileId}',
    async () => {
      const res = await as('post', '/api/v1/files').attach('file', await samplePdf('Gone'), 'gone.pdf');
      return as('delete', `/api/v1/files/${res.body._id}`);
    },
  ],
  [
    'POST /api/v1/sessionrequests',
    async () => {
      const res = await as('post', '/api/v1/sessionrequests').send({
        type: 'qlist',
        customerId: ids.contact,
        questionListIds: [await createTemplate(h, org)],
      });
      ids.action = res.body._id;
      return res;
    },
  ],
  [
    'POST /api/v1/sessionrequests/{actionId}/reopen',
    async () => {
      await complete(ids.action as string);
      return as('post', `/api/v1/sessionrequests/${ids.action}/reopen`);
    },
  ],
  [
    'POST /api/v1/sessionrequests/{actionId}/deactivate',
    () => as('post', `/api/v1/sessionrequests/${ids.action}/deactivate`),
  ],
  [
    'POST /api/v1/quicksigningsetup',
    () =>
      as('post', '/api/v1/quicksigningsetup').send({
        customer: { firstname: 'Marie', lastname: 'Claes', email: 'marie.walk@example.test' },
        document: { fileid: ids.file, title: 'Contract' },
      }),
  ],
  [
    'POST /api/v1/bc/actionsetup',
    () => as('post', '/api/v1/bc/actionsetup').send({ customers: [{ email: 'walk.setup@example.test' }] }),
  ],
  [
    'POST /api/v1/webhooks',
    async () => {
      const res = await as('post', '/api/v1/webhooks').send({
        url: receiver.url,
        events: ['customer.created'],
      });
      ids.webhook = res.body._id;
      return res;
    },
  ],
  [
    'PATCH /api/v1/webhooks/{webhookId}',
    () => as('patch', `/api/v1/webhooks/${ids.webhook}`).send({ description: 'CRM' }),
  ],
  [
    'POST /api/v1/webhooks/{webhookId}/rotate-secret',
    () => as('post', `/api/v1/webhooks/${ids.webhook}/rotate-secret`),
  ],
  ['POST /api/v1/webhooks/{webhookId}/test', () => as('post', `/api/v1/webhooks/${ids.webhook}/test`)],
  [
    'POST /api/v1/webhooks/deliveries/{deliveryId}/redeliver',
    async () => {
      await createContact(h, org, { Voornaam: 'Hooked' });
      await h.jobs.drain();
      const list = await h
        .api()
        .get(`/api/v1/webhooks/${ids.webhook}/deliveries`)
        .set('x-api-key', org.adminKey);
      return as('post', `/api/v1/webhooks/deliveries/${list.body.deliveries[0]._id}/redeliver`);
    },
  ],
  ['DELETE /api/v1/webhooks/{webhookId}', () => as('delete', `/api/v1/webhooks/${ids.webhook}`)],
  [
    'POST /api/v1/test/sessionrequests/{actionId}/fast-forward',
    async () => {
      const made = await as('post', `/api/v1/admin/users/${org.adminId}/apikeys`).send({
        name: 'walk',
        mode: 'test',
      });
      ids.testKey = made.body.apiKey;
      const contact = await as('post', '/api/v1/customers', ids.testKey).send({ data: { Voornaam: 'Test' } });
      const action = await as('post', '/api/v1/sessionrequests', ids.testKey).send({
        type: 'qlist',
        customerId: contact.body._id,
        questionListIds: [
          (await as('post', '/api/v1/questionlists', ids.testKey).send(templateBody())).body._id,
        ],
        expiresAt: new Date(h.clock.now().getTime() + 86_400_000).toISOString(),
      });
      return as('post', `/api/v1/test/sessionrequests/${action.body._id}/fast-forward`, ids.testKey).send({
        to: 'expiry',
      });
    },
  ],
  ['DELETE /api/v1/test/data', () => as('delete', '/api/v1/test/data', ids.testKey)],
];

describe('the audit trail, walked over the OpenAPI document', () => {
  it('when every operation of the API that changes something is called, then each leaves an audit event under its request id', async () => {
    const doc = (await h.api().get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const mutating = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => m !== 'get')
          .map((m) => key(m, path)),
      )
      .filter((op) => !(op in readsOnly))
      .sort();
    expect(scenarios.map(([op]) => op).sort()).toEqual(mutating);

    for (const [op, run] of scenarios) {
      const res = await run();
      expect([op, res.status < 300 ? 'ok' : JSON.stringify(res.body)]).toEqual([op, 'ok']);
      const requestId = String(res.headers['x-request-id']);
      // Test mode's operations are recorded in the test organisation: read with the key that asked.
      const asked = (res as unknown as { req: { getHeader(name: string): unknown } }).req;
      const key = String(asked.getHeader('x-api-key') ?? org.adminKey);
      const events = await h
        .api()
        .get(`/api/v1/audit-events?requestId=${encodeURIComponent(requestId)}`)
        .set('x-api-key', key);
      expect([op, events.body.events.length > 0]).toEqual([op, true]);
      for (const e of events.body.events) expect(e.address).toBe('127.0.0.1');
    }
  });
});
