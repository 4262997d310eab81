import { sql } from 'drizzle-orm';
import {
  ApiKeyList,
  CreatedApiKey,
  User,
  UserList,
} from '../src/modules/organisations/organisations.schemas';
import { createOrg, createUserWithKey, type TestOrg, tenantRows, unknownId } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

const as = (key: string) => ({
  get: (p: string) => h.api().get(`/api/v1/admin${p}`).set('x-api-key', key),
  post: (p: string, body?: object) => h.api().post(`/api/v1/admin${p}`).set('x-api-key', key).send(body),
  patch: (p: string, body: object) => h.api().patch(`/api/v1/admin${p}`).set('x-api-key', key).send(body),
  delete: (p: string) => h.api().delete(`/api/v1/admin${p}`).set('x-api-key', key),
});

describe('admin: users', () => {
  it('when an administrator creates a user, then 201 with the user, listed afterwards', async () => {
    const res = await as(org.adminKey).post('/users', {
      email: 'Sam@Example.test',
      name: 'Sam',
      kind: 'service',
      groups: ['adviser'],
    });
    expect(res.status).toBe(201);
    const user = User.parse(res.body);
    expect(user).toMatchObject({
      email: 'Sam@Example.test',
      name: 'Sam',
      kind: 'service',
      status: 'active',
      groups: ['adviser'],
    });
    const list = UserList.parse((await as(org.adminKey).get('/users')).body);
    expect(list.users.map((u) => u._id)).toContain(user._id);
    expect(list.users.map((u) => u._id)).toContain(org.adminId);
    const dup = await as(org.adminKey).post('/users', {
      email: 'sam@example.test',
      name: 'Sam 2',
      groups: ['adviser'],
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatch(/already exists/);
  });

  it('when the input is invalid, then 400 names the fields', async () => {
    const res = await as(org.adminKey).post('/users', {
      email: 'nope',
      name: '',
      groups: ['superuser'],
      role: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'groups[0]',
      'name',
      'role',
    ]);
  });

  it('when a non-administrator calls, then 403; without a key, 401', async () => {
    const manager = await createUserWithKey(h, org, ['file manager']);
    const res = await as(manager.key).get('/users');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403 });
    expect((await h.api().get('/api/v1/admin/users')).status).toBe(401);
  });

  it('when another organisation’s user is addressed, then 404 and nothing changes', async () => {
    const res = await as(other.adminKey).post(`/users/${org.adminId}/deactivate`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User not found');
    expect((await as(org.adminKey).get(`/users/${org.adminId}`)).body.status).toBe('active');
    expect((await as(org.adminKey).get(`/users/${unknownId}`)).status).toBe(404);
    expect((await as(org.adminKey).get('/users/garbage')).status).toBe(404);
  });

  it('when deactivating twice, then the second answer is 409 with the current status', async () => {
    const u = await createUserWithKey(h, org, ['adviser']);
    expect((await as(org.adminKey).post(`/users/${u.userId}/deactivate`)).body.status).toBe('deactivated');
    const again = await as(org.adminKey).post(`/users/${u.userId}/deactivate`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      status: 409,
      details: [{ field: 'status', in: 'state', value: 'deactivated' }],
    });
    expect((await as(org.adminKey).post(`/users/${u.userId}/reactivate`)).body.status).toBe('active');
    expect((await as(org.adminKey).post(`/users/${u.userId}/reactivate`)).status).toBe(409);
  });

  it('when the last active administrator would be deactivated, demoted or deleted, then 409', async () => {
    const solo = await createOrg(h);
    expect((await as(solo.adminKey).post(`/users/${solo.adminId}/deactivate`)).status).toBe(409);
    expect((await as(solo.adminKey).patch(`/users/${solo.adminId}`, { groups: ['adviser'] })).status).toBe(
      409,
    );
    const second = await createUserWithKey(h, solo, ['administrator']);
    expect((await as(second.key).delete(`/users/${solo.adminId}`)).status).toBe(204);
    const last = await as(second.key).post(`/users/${second.userId}/deactivate`);
    expect(last.status).toBe(409);
    expect(last.body.error).toBe("Cannot deactivate the organisation's last active administrator");
    expect(last.body.details).toEqual([
      {
        field: 'userId',
        in: 'path',
        message: expect.stringContaining('must keep at least one active administrator'),
      },
    ]);
    const demoted = await as(second.key).patch(`/users/${second.userId}`, { groups: ['adviser'] });
    expect(demoted.body.details).toEqual([expect.objectContaining({ field: 'groups', in: 'body' })]);
    const still = await as(second.key).get(`/users/${second.userId}`);
    expect(still.body).toMatchObject({ status: 'active', groups: ['administrator'] });
  });

  it('when two administrators deactivate or demote each other at the same moment, then exactly one change passes and one active administrator stays', async () => {
    for (const round of ['deactivate', 'demote'] as const) {
      const pair = await createOrg(h);
      const peer = await createUserWithKey(h, pair, ['administrator']);
      const change = (key: string, userId: string) =>
        round === 'deactivate'
          ? as(key).post(`/users/${userId}/deactivate`)
          : as(key).patch(`/users/${userId}`, { groups: ['adviser'] });
      const answers = await Promise.all([change(pair.adminKey, peer.userId), change(peer.key, pair.adminId)]);
      // The loser is refused by the rule (409), or its own key already is (403, its user deactivated or
      // demoted first); never both changes, never a 5xx.
      const [won, lost] = answers.map((a) => a.status).sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const admins = await tenantRows<{ n: number }>(
        h,
        pair.organisationId,
        sql`select count(*)::int as n from users where organisation_id = ${pair.organisationId}
             and status = 'active' and 'administrator' = any(groups)`,
      );
      expect({ round, admins: admins[0]?.n }).toEqual({ round, admins: 1 });
    }
  });

  it('when a user changes name and groups, then the answer shows them', async () => {
    const u = await createUserWithKey(h, org, ['read-only']);
    const res = await as(org.adminKey).patch(`/users/${u.userId}`, {
      name: 'Renamed',
      groups: ['adviser', 'file manager'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', groups: ['adviser', 'file manager'] });
    expect((await as(org.adminKey).patch(`/users/${u.userId}`, {})).status).toBe(400);
  });
});

describe('admin: API keys', () => {
  it('when a key is created, then it is shown once, works, and later listings never show it', async () => {
    const u = await createUserWithKey(h, org, ['adviser']);
    const res = await as(org.adminKey).post(`/users/${u.userId}/apikeys`, { name: 'CRM sync' });
    expect(res.status).toBe(201);
    const created = CreatedApiKey.parse(res.body);
    expect(created).toMatchObject({
      name: 'CRM sync',
      userId: u.userId,
      revokedAt: null,
      lastUsedAt: null,
      secretAlreadyShown: false,
    });
    const key = created.apiKey ?? '';
    expect(created.prefix).toBe(key.slice(0, 12));
    expect((await h.api().get('/api/v1/customers').set('x-api-key', key)).status).toBe(200);
    const listed = await as(org.adminKey).get(`/users/${u.userId}/apikeys`);
    const list = ApiKeyList.parse(listed.body);
    expect(list.apiKeys.map((k) => k.name).sort()).toEqual(['CRM sync', 'test key']);
    expect(JSON.stringify(listed.body)).not.toContain(created.apiKey);
    expect(list.apiKeys.find((k) => k._id === created._id)?.lastUsedAt).toBe(h.clock.now().toISOString());
  });

  it('when a key is revoked, then it is hidden from the default listing, shown with includeRevoked, and 409 on a second revoke', async () => {
    const u = await createUserWithKey(h, org, ['adviser']);
    const res = await as(org.adminKey).delete(`/users/${u.userId}/apikeys/${u.keyId}`);
    expect(res.status).toBe(200);
    expect(res.body.revokedAt).toBe(h.clock.now().toISOString());
    expect((await as(org.adminKey).get(`/apikeys?userId=${u.userId}`)).body.total).toBe(0);
    expect((await as(org.adminKey).get(`/apikeys?userId=${u.userId}&includeRevoked=true`)).body.total).toBe(
      1,
    );
    expect((await as(org.adminKey).delete(`/users/${u.userId}/apikeys/${u.keyId}`)).status).toBe(409);
  });

  it('when another organisation addresses a key, then 404 and the key keeps working', async () => {
    const u = await createUserWithKey(h, org, ['adviser']);
    expect((await as(other.adminKey).delete(`/users/${u.userId}/apikeys/${u.keyId}`)).status).toBe(404);
    expect((await as(other.adminKey).post(`/users/${u.userId}/apikeys`, { name: 'steal' })).status).toBe(404);
    expect((await as(other.adminKey).get(`/apikeys?userId=${u.userId}`)).status).toBe(404);
    const mine = ApiKeyList.parse((await as(other.adminKey).get('/apikeys')).body);
    expect(mine.apiKeys.every((k) => k.userId !== u.userId)).toBe(true);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', u.key)).status).toBe(200);
  });

  it('when the input is invalid, then 400 names the field', async () => {
    const res = await as(org.adminKey).post(`/users/${org.adminId}/apikeys`, { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('name');
    expect((await as(org.adminKey).get('/apikeys?userId=zzz')).body.details[0].field).toBe('userId');
  });

  it('when a non-administrator manages keys, then 403', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    expect((await as(adviser.key).post(`/users/${adviser.userId}/apikeys`, { name: 'mine' })).status).toBe(
      403,
    );
    expect((await as(adviser.key).get('/apikeys')).status).toBe(403);
  });
});
