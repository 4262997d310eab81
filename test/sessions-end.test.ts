import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/database';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';

/**
 * Access ends when it is taken away (docs/security.md): deactivation, narrower groups and an
 * administrator's "sign out everywhere" end every browser session of the user at once, and the sessions
 * table holds only hashes of the ids.
 */
let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Sessies');
});
afterAll(() => h.close());

type Agent = Awaited<ReturnType<typeof signedIn>>['agent'];
const admin = (method: 'post' | 'patch', path: string) =>
  h.api()[method](`/api/v1/admin/users${path}`).set('x-api-key', org.adminKey);

/** Where the desk sends the browser now: 200 on the page, or the sign-in it is sent to. */
async function desk(agent: Agent): Promise<string> {
  const res = await agent.get('/staff/contacts');
  return res.status === 200 ? 'desk' : `${res.status} ${res.headers.location}`;
}

/** The session ids the browsers hold (the cookie is `s:<id>.<signature>`). */
function sessionIdOf(agent: Agent): string {
  const cookie = agent.jar.getCookie('adk_staff', {
    domain: '127.0.0.1',
    path: '/',
    secure: false,
    script: false,
  });
  const value = decodeURIComponent(cookie?.value ?? '');
  return value.slice(2, value.lastIndexOf('.'));
}

const sessionRows = () =>
  queryRows<{ sid: string; user_id: string; sess: unknown }>(
    h.database.db,
    sql`SELECT sid, user_id, sess FROM staff_sessions`,
  );

describe('ending sessions', () => {
  it('when a user is deactivated, then every browser of theirs is sent to sign-in at its next request, and stays signed out after reactivation', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const laptop = (await signedIn(h, user.email)).agent;
    const phone = (await signedIn(h, user.email)).agent;
    const colleague = (await signedIn(h, (await staffUser(h, org, ['adviser'])).email)).agent;
    expect([await desk(laptop), await desk(phone)]).toEqual(['desk', 'desk']);

    h.clock.advance(1_000);
    const off = await admin('post', `/${user.id}/deactivate`);
    expect(off.body).toMatchObject({ _id: user.id, status: 'deactivated' });
    // Both ended with the deactivation, not at each browser's next request: the rows keep only why.
    expect((await sessionRows()).filter((r) => r.user_id === user.id).map((r) => r.sess)).toEqual([
      { cookie: expect.any(Object), ended: 'deactivated' },
      { cookie: expect.any(Object), ended: 'deactivated' },
    ]);
    expect(await desk(laptop)).toBe('303 /signin?next=%2Fstaff%2Fcontacts&ended=deactivated');
    expect((await laptop.get('/signin?next=%2Fstaff%2Fcontacts&ended=deactivated')).text).toContain(
      'Your account has been deactivated.',
    );
    expect((await admin('post', `/${user.id}/reactivate`)).body.status).toBe('active');
    // The laptop was told once; the phone is told now; neither is signed in again.
    expect([await desk(laptop), await desk(phone)]).toEqual([
      '303 /signin?next=%2Fstaff%2Fcontacts',
      '303 /signin?next=%2Fstaff%2Fcontacts&ended=deactivated',
    ]);
    expect(await desk(phone)).toBe('303 /signin?next=%2Fstaff%2Fcontacts');
    // Others are not touched; the user signs in again.
    expect(await desk(colleague)).toBe('desk');
    expect(await desk((await signedIn(h, user.email)).agent)).toBe('desk');
  });

  it('when a session a request had in flight is written back after the end, then it is still refused', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const laptop = (await signedIn(h, user.email)).agent;
    const [row] = (await sessionRows()).filter((r) => r.user_id === user.id);
    h.clock.advance(1_000);
    expect((await admin('post', `/${user.id}/sign-out`)).body).toEqual({
      success: true,
      userId: user.id,
      endedSessions: 1,
    });
    // What a request in flight would save at its end: the same row again.
    await h.database.query(
      "INSERT INTO staff_sessions (sid, sess, expire, organisation_id, user_id) VALUES ($1, $2, now() + interval '1 hour', $3, $4) ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess",
      [row?.sid, JSON.stringify(row?.sess), org.organisationId, user.id],
    );
    expect(await desk(laptop)).toBe('303 /signin?next=%2Fstaff%2Fcontacts&ended=revoked');
    const again = await laptop.get('/signin?next=%2Fstaff%2Fcontacts&ended=revoked');
    expect(again.text).toContain('You were signed out on every device.');
  });

  it('when an administrator signs a user out everywhere (API or desk), then each of their browsers ends, and the trail says so', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const browsers = [(await signedIn(h, user.email)).agent, (await signedIn(h, user.email)).agent];
    const boss = (await signedIn(h, (await staffUser(h, org, ['administrator'])).email)).agent;
    const page = await boss.get(`/staff/users/${user.id}`);
    expect(page.text).toContain('Sign out everywhere');
    h.clock.advance(1_000);
    const done = await boss
      .post(`/staff/users/${user.id}/sign-out`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/staff/users/${user.id}?done=signed-out#keys`);
    expect((await boss.get(done.headers.location as string)).text).toContain('signed out of every browser');
    for (const b of browsers)
      expect(await desk(b)).toBe('303 /signin?next=%2Fstaff%2Fcontacts&ended=revoked');
    expect(await desk(boss)).toBe('desk');
    const trail = await h
      .api()
      .get(`/api/v1/audit-events?targetId=${user.id}`)
      .set('x-api-key', org.adminKey);
    expect(trail.body.events[0]).toMatchObject({
      action: 'user.signed_out',
      summary: { endedSessions: 2 },
      actor: expect.objectContaining({ type: 'user' }),
    });
    // Nobody there: 404, and nothing is changed.
    const none = await admin('post', '/01900000-0000-7000-8000-000000000000/sign-out');
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('User not found');
  });

  it('when a user’s groups are narrowed, then their sessions end; when widened, they go on', async () => {
    const user = await staffUser(h, org, ['administrator', 'adviser']);
    await staffUser(h, org, ['administrator']);
    const browser = (await signedIn(h, user.email)).agent;
    expect(
      (await admin('patch', `/${user.id}`).send({ groups: ['administrator', 'adviser', 'read-only'] }))
        .status,
    ).toBe(200);
    expect(await desk(browser)).toBe('desk');
    expect((await admin('patch', `/${user.id}`).send({ name: 'Renamed' })).status).toBe(200);
    expect(await desk(browser)).toBe('desk');
    expect((await admin('patch', `/${user.id}`).send({ groups: ['adviser'] })).status).toBe(200);
    expect(await desk(browser)).toBe('303 /signin?next=%2Fstaff%2Fcontacts&ended=access');
    expect((await browser.get('/signin?ended=access')).text).toContain(
      'An administrator changed what you may do here.',
    );
  });

  it('when the sessions table is read, then it holds no session id a browser holds, only their hashes', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const browser = (await signedIn(h, user.email)).agent;
    const sid = sessionIdOf(browser);
    expect(sid.length).toBeGreaterThan(20);
    const rows = await sessionRows();
    expect(rows.map((r) => r.sid)).not.toContain(sid);
    expect(rows.map((r) => r.sid)).toContain(createHash('sha256').update(sid).digest('base64url'));
    // A user deleted leaves no session to act with: the row keeps only why it ended, until the browser
    // comes back (and is told) or it expires.
    const gone = await h.api().delete(`/api/v1/admin/users/${user.id}`).set('x-api-key', org.adminKey);
    expect(gone.status).toBe(204);
    expect((await sessionRows()).filter((r) => r.user_id === user.id).map((r) => r.sess)).toEqual([
      { cookie: expect.any(Object), ended: 'deleted' },
    ]);
    expect(await desk(browser)).toBe('303 /signin?next=%2Fstaff%2Fcontacts&ended=deleted');
    expect((await sessionRows()).filter((r) => r.user_id === user.id)).toEqual([]);
  });
});
