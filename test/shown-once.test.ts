import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Webhook as Verifier } from 'standardwebhooks';
import { parseEncryptionKeys, SecretBox } from '../src/platform/crypto/sealed';
import { basicAuth, createOrg, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';

/**
 * Shown once means once (docs/api.md#secrets-are-shown-once): every operation whose answer declares a
 * secret shown once (`x-shown-once` in the OpenAPI document the app serves) is called with an
 * Idempotency-Key, then replayed. The replay is the same resource without the secret, the stored answer
 * (read from the table and opened) never holds it, and the secret of the first answer works. A new
 * operation with a secret and no scenario here fails the first test.
 */
const ENCRYPTION_KEYS = `t1:${Buffer.alloc(32, 34).toString('base64')}`;
const box = new SecretBox(parseEncryptionKeys(ENCRYPTION_KEYS));

let h: Harness;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let doc: Document;

beforeAll(async () => {
  h = await startHarness({
    ENCRYPTION_KEYS,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_SECONDS: '2',
  });
  org = await createOrg(h);
  receiver = await startWebhookReceiver(() => h.clock.now());
  doc = (await h.api().get('/api/v1/openapi.json')).body;
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  'x-shown-once'?: boolean;
};
type Operation = {
  parameters?: { name: string }[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const resolve = (s: Schema): Schema =>
  s.$ref ? resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')] ?? {}) : s;

/** The top-level fields of an object schema (allOf merged). */
function fieldsOf(schema: Schema): Record<string, Schema> {
  const s = resolve(schema);
  return Object.assign({}, ...(s.allOf ?? []).map(fieldsOf), s.properties ?? {});
}

/** Each operation's success answer: `METHOD path` → its schema. */
function successAnswers(): [string, Operation, Schema][] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) =>
      Object.entries(op.responses)
        .filter(([status]) => /^2/.test(status))
        .flatMap(([, r]) => {
          const schema = r.content?.['application/json']?.schema;
          return schema
            ? [[`${method.toUpperCase()} ${path}`, op, schema] as [string, Operation, Schema]]
            : [];
        }),
    ),
  );
}

/** The operations whose answer declares secrets shown once, with those fields. */
function secretOperations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [operation, , schema] of successAnswers()) {
    const secrets = Object.entries(fieldsOf(schema))
      .filter(([, field]) => resolve(field)['x-shown-once'] === true)
      .map(([name]) => name);
    if (secrets.length > 0) found.set(operation, secrets);
  }
  return found;
}

const admin = (method: 'get' | 'post', path: string) => h.api()[method](path).set('x-api-key', org.adminKey);

const token = (clientId: string, secret: string) =>
  h
    .api()
    .post('/api/v1/auth/oauth/token')
    .type('form')
    .set('Authorization', basicAuth(clientId, secret))
    .send({ grant_type: 'client_credentials' });

async function newClient(): Promise<{ _id: string; clientId: string }> {
  const res = await admin('post', '/api/v1/admin/oauth/clients').send({
    name: `Partner ${randomUUID().slice(0, 8)}`,
    grants: ['client_credentials'],
    scopes: ['read'],
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function newWebhook(): Promise<{ _id: string }> {
  const res = await admin('post', '/api/v1/webhooks').send({ url: receiver.url, events: ['*'] });
  expect(res.status).toBe(201);
  return res.body;
}

/** A signed test ping to the webhook verifies with `secret` (Standard Webhooks). */
async function pingVerifiesWith(webhookId: string, secret: string): Promise<boolean> {
  const before = receiver.received.length;
  const res = await admin('post', `/api/v1/webhooks/${webhookId}/test`);
  expect(res.status).toBe(200);
  const req = receiver.received[before];
  if (!req) throw new Error('the ping did not arrive');
  const id = String(req.headers['webhook-id']);
  const at = new Date(Number(req.headers['webhook-timestamp']) * 1000);
  return String(req.headers['webhook-signature'])
    .split(' ')
    .includes(new Verifier(secret).sign(id, at, req.raw));
}

interface Scenario {
  /** The request: its path (ids filled in) and body. */
  arrange(): Promise<{ path: string; body: object }>;
  /** What identifies the resource in the answer (the same in the replay). */
  id: string;
  /** Asserts that the secret of the first answer works. */
  works(secret: string, first: Record<string, unknown>): Promise<void>;
}

const scenarios: Record<string, Scenario> = {
  'POST /api/v1/admin/users/{userId}/apikeys': {
    arrange: async () => ({ path: `/api/v1/admin/users/${org.adminId}/apikeys`, body: { name: 'CRM' } }),
    id: '_id',
    async works(secret) {
      expect((await h.api().get('/api/v1/customers').set('x-api-key', secret)).status).toBe(200);
    },
  },
  'POST /api/v1/admin/oauth/clients': {
    arrange: async () => ({
      path: '/api/v1/admin/oauth/clients',
      body: { name: 'Partner CRM', grants: ['client_credentials'], scopes: ['read'] },
    }),
    id: '_id',
    async works(secret, first) {
      const res = await token(first.clientId as string, secret);
      expect(res.status).toBe(200);
      expect(res.body.access_token).toMatch(/^adt_/);
    },
  },
  'POST /api/v1/admin/oauth/clients/{clientId}/rotate-secret': {
    arrange: async () => ({
      path: `/api/v1/admin/oauth/clients/${(await newClient())._id}/rotate-secret`,
      body: {},
    }),
    id: 'clientId',
    async works(secret, first) {
      expect((await token(first.clientId as string, secret)).status).toBe(200);
    },
  },
  'POST /api/v1/webhooks': {
    arrange: async () => ({ path: '/api/v1/webhooks', body: { url: receiver.url, events: ['*'] } }),
    id: '_id',
    async works(secret, first) {
      expect(await pingVerifiesWith(first._id as string, secret)).toBe(true);
    },
  },
  'POST /api/v1/webhooks/{webhookId}/rotate-secret': {
    arrange: async () => ({
      path: `/api/v1/webhooks/${(await newWebhook())._id}/rotate-secret`,
      body: { overlapHours: 0 },
    }),
    id: '_id',
    async works(secret, first) {
      expect(await pingVerifiesWith(first._id as string, secret)).toBe(true);
    },
  },
};

/** The stored answer of `key`: its row as the table holds it, and its body opened. */
async function storedAnswer(key: string) {
  const rows = await tenantRows<{ credential: string; status: number; body: string }>(
    h,
    org.organisationId,
    sql`SELECT credential, status, body FROM idempotency_keys WHERE key = ${key}`,
  );
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  const opened = box.open(row.body, `idempotency:${org.organisationId}:${row.credential}:${key}`);
  return { row, opened };
}

describe('secrets shown once, replayed with an Idempotency-Key', () => {
  it('when the document is read, then the operations answering a secret shown once are the ones with a scenario here', () => {
    const found = secretOperations();
    expect([...found.keys()].sort()).toEqual(Object.keys(scenarios).sort());
    expect([...found.values()].flat().sort()).toEqual([
      'apiKey',
      'clientSecret',
      'clientSecret',
      'secret',
      'secret',
    ]);
  });

  it.each(Object.keys(scenarios))(
    'when %s is sent again with its Idempotency-Key, then the replay is the same resource without the secret, secretAlreadyShown is true, the stored answer holds no secret, and the first answer’s secret works',
    async (operation) => {
      const scenario = scenarios[operation]!;
      const secrets = secretOperations().get(operation) ?? [];
      expect(secrets.length).toBeGreaterThan(0);
      const { path, body } = await scenario.arrange();
      const key = randomUUID();
      const send = () => admin('post', path).set('Idempotency-Key', key).send(body);

      const first = await send();
      expect(first.status).toBeLessThan(300);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(first.body.secretAlreadyShown).toBe(false);
      const values = secrets.map((field) => first.body[field] as string);
      for (const value of values) expect(value).toEqual(expect.stringMatching(/^(adk|adcs|whsec)_.{20,}/));

      const replays = [await send(), await send()];
      for (const replay of replays) {
        expect(replay.status).toBe(first.status);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body[scenario.id]).toBe(first.body[scenario.id]);
        // Everything else as first sent, in the same order; the secret null, the marker true.
        const expected = { ...first.body, secretAlreadyShown: true };
        for (const field of secrets) expected[field] = null;
        expect(replay.text).toBe(JSON.stringify(expected));
        for (const value of values) expect(replay.text).not.toContain(value);
      }

      const { row, opened } = await storedAnswer(key);
      expect(row.status).toBe(first.status);
      expect(JSON.parse(opened)).toEqual({
        ...first.body,
        ...Object.fromEntries(secrets.map((f) => [f, null])),
        secretAlreadyShown: true,
      });
      for (const value of values) {
        expect(row.body).not.toContain(value);
        expect(opened).not.toContain(value);
      }

      for (const value of values) await scenario.works(value, first.body);
    },
  );

  it('when an answer stored before secrets were left out holds one, then its replay is still answered without it', async () => {
    const key = randomUUID();
    const path = `/api/v1/admin/users/${org.adminId}/apikeys`;
    const send = () => admin('post', path).set('Idempotency-Key', key).send({ name: 'Old' });
    const first = await send();
    expect(first.status).toBe(201);
    const { row } = await storedAnswer(key);
    // As an answer stored by an earlier version was: the whole first answer, sealed.
    const sealed = box.seal(first.text, `idempotency:${org.organisationId}:${row.credential}:${key}`);
    await tenantRows(
      h,
      org.organisationId,
      sql`UPDATE idempotency_keys SET body = ${sealed} WHERE key = ${key} RETURNING key`,
    );
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ _id: first.body._id, apiKey: null, secretAlreadyShown: true });
    expect(replay.text).not.toContain(first.body.apiKey);
  });

  it('when the document is read, then no answer of an idempotent operation carries a field named like a credential that is not a top-level field declared shown once', () => {
    const credentialName = /secret|token|password|apikey|^key$/i;
    const undeclared: string[] = [];
    // Only an answer's top-level fields are left out of replays: a credential deeper down is reported.
    const walk = (where: string, schema: Schema, seen: Set<Schema>, top: boolean) => {
      const s = resolve(schema);
      if (seen.has(s)) return;
      seen.add(s);
      for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
        walk(where, part, seen, top);
      if (s.items) walk(`${where}[]`, s.items, seen, false);
      for (const [name, field] of Object.entries(s.properties ?? {})) {
        const f = resolve(field);
        const text = [f.type ?? []].flat().includes('string') && f.format !== 'date-time';
        if (credentialName.test(name) && text && !(top && f['x-shown-once'] === true))
          undeclared.push(`${where} .${name}`);
        walk(`${where} .${name}`, field, seen, false);
      }
    };
    let idempotent = 0;
    for (const [operation, op, schema] of successAnswers()) {
      if (!op.parameters?.some((p) => p.name === 'Idempotency-Key')) continue;
      idempotent += 1;
      walk(operation, schema, new Set(), true);
    }
    expect(idempotent).toBeGreaterThanOrEqual(20);
    expect(undeclared).toEqual([]);
  });
});
