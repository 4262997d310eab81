import { sql } from 'drizzle-orm';
import { generateApiKey, isWellFormedApiKey } from '../src/platform/crypto/api-keys';
import { queryRows } from '../src/platform/db/database';
import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
});
afterAll(() => h.close());

const list = (key?: string) => {
  const r = h.api().get('/api/v1/customers');
  return key === undefined ? r : r.set('x-api-key', key);
};
const authError = (error: string, code: number) => ({
  success: false,
  error,
  code,
  details: [],
  requestId: expect.any(String),
});

async function keyRow(keyId: string) {
  // Read as the owner would: through the tenant setting, since the app role sees nothing without it.
  return h.database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('app.organisation_id', ${org.organisationId}, true)`);
    const [row] = await queryRows<{ last_used_at: string | null; secret_hash: string; prefix: string }>(
      tx,
      sql`SELECT to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_used_at, secret_hash, prefix FROM api_keys WHERE id = ${keyId}`,
    );
    return row;
  });
}

describe('API key format', () => {
  it('when generated, then keys carry the adk_ prefix and a checksum that catches a typo', () => {
    const { key, lookupPrefix, secretHash } = generateApiKey();
    expect(key).toMatch(/^adk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(lookupPrefix).toBe(key.slice(0, 12));
    expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
    const last = key.at(-8) === 'a' ? 'b' : 'a';
    expect(isWellFormedApiKey(`${key.slice(0, -8)}${last}${key.slice(-7)}`)).toBe(false);
    expect(generateApiKey().key).not.toBe(key);
  });
});

describe('x-api-key authentication', () => {
  it('when no key is sent, then 401 in the auth error shape', async () => {
    const res = await list();
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      authError('Missing credentials: send your API key in the x-api-key header', 401),
    );
  });

  it('when the key is unknown, then 401', async () => {
    const res = await list(generateApiKey().key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(authError('Invalid API key', 401));
  });

  it('when the key is stored, then only its hash is, never the key itself', async () => {
    const user = await createUserWithKey(h, org, ['adviser']);
    const row = await keyRow(user.keyId);
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.secret_hash).not.toContain(user.key.slice(4));
    expect(row?.prefix).toBe(user.key.slice(0, 12));
  });

  it('when a valid key is sent, then the request runs as its user and lastUsedAt is recorded at most once a minute', async () => {
    const user = await createUserWithKey(h, org, ['read-only']);
    expect((await keyRow(user.keyId))?.last_used_at).toBeNull();
    const t0 = h.clock.now();
    expect((await list(user.key)).status).toBe(200);
    expect((await keyRow(user.keyId))?.last_used_at).toBe(t0.toISOString());
    h.clock.advance(30_000);
    await list(user.key);
    expect((await keyRow(user.keyId))?.last_used_at).toBe(t0.toISOString());
    h.clock.advance(31_000);
    await list(user.key);
    expect((await keyRow(user.keyId))?.last_used_at).toBe(h.clock.now().toISOString());
  });

  it('when the user is deactivated, then the very next request is refused with 403, and reactivation restores access', async () => {
    const user = await createUserWithKey(h, org, ['adviser']);
    expect((await list(user.key)).status).toBe(200); // now cached
    const off = await h
      .api()
      .post(`/api/v1/admin/users/${user.userId}/deactivate`)
      .set('x-api-key', org.adminKey);
    expect(off.body.status).toBe('deactivated');
    const res = await list(user.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(authError('User account is deactivated', 403));
    await h.api().post(`/api/v1/admin/users/${user.userId}/reactivate`).set('x-api-key', org.adminKey);
    expect((await list(user.key)).status).toBe(200);
  });

  it('when the key is revoked, then the very next request is refused with 401', async () => {
    const user = await createUserWithKey(h, org, ['adviser']);
    expect((await list(user.key)).status).toBe(200);
    const revoked = await h
      .api()
      .delete(`/api/v1/admin/users/${user.userId}/apikeys/${user.keyId}`)
      .set('x-api-key', org.adminKey);
    expect(revoked.status).toBe(200);
    const res = await list(user.key);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(authError('API key has been revoked or its user no longer exists', 401));
    // And later, once the cache entry is gone, still 401.
    h.clock.advance(120_000);
    expect((await list(user.key)).body).toEqual(authError('Invalid API key', 401));
  });

  it('when the key’s user is deleted, then 401', async () => {
    const user = await createUserWithKey(h, org, ['adviser']);
    expect((await list(user.key)).status).toBe(200);
    expect(
      (await h.api().delete(`/api/v1/admin/users/${user.userId}`).set('x-api-key', org.adminKey)).status,
    ).toBe(204);
    const res = await list(user.key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  it('when the user loses a group, then the next request needing it is refused', async () => {
    const user = await createUserWithKey(h, org, ['adviser']);
    const create = () =>
      h
        .api()
        .post('/api/v1/customers')
        .set('x-api-key', user.key)
        .send({ data: { Voornaam: 'Q' } });
    expect((await create()).status).toBe(201);
    await h
      .api()
      .patch(`/api/v1/admin/users/${user.userId}`)
      .set('x-api-key', org.adminKey)
      .send({ groups: ['read-only'] });
    const res = await create();
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("Permission 'create' is required; the user's groups do not grant it");
    expect((await list(user.key)).status).toBe(200);
  });

  it('when the key is malformed, then 401 without touching the database', async () => {
    const separate = await startHarness();
    try {
      await separate.database.close();
      const bad = await separate.api().get('/api/v1/customers').set('x-api-key', 'adk_thisisnotakey');
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual(authError('Invalid API key', 401));
      const typo = generateApiKey().key.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
      expect((await separate.api().get('/api/v1/customers').set('x-api-key', typo)).status).toBe(401);
      // A well-formed key does need the database, which is closed here: proof the others never asked it.
      const wellFormed = await separate.api().get('/api/v1/customers').set('x-api-key', generateApiKey().key);
      expect(wellFormed.status).toBe(500);
    } finally {
      await new Promise<void>((resolve) => separate.server.close(() => resolve()));
    }
  });
});
