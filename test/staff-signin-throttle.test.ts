import request from 'supertest';
import { signInFailuresRetention } from '../src/modules/accounts';
import { sweepRetention } from '../src/platform/ops/retention';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, STAFF_PASSWORD, staffUser, withoutTokens } from './support/staff';

// Failed sign-ins slow guessing down without locking anyone out (issue 34 item 6): growing delays per
// account and per address, and a browser that signed in to the account before (its device cookie) is
// slowed only by its own failures. The app trusts the loopback proxy here, so X-Forwarded-For says
// where each browser is.

let h: Harness;
let org: TestOrg;

beforeAll(async () => {
  h = await startHarness({ TRUST_PROXY: 'loopback' });
  org = await createOrg(h);
});
afterAll(() => h.close());

type Agent = ReturnType<typeof request.agent>;
interface Browser {
  agent: Agent;
  address: string;
}

const browserAt = (address: string): Browser => ({ agent: request.agent(h.server), address });

/** Posts the sign-in form from the browser (its cookies; from its address unless another is given). */
async function signIn(b: Browser, email: string, password: string, address = b.address) {
  const page = await b.agent.get('/signin').set('X-Forwarded-For', address);
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: still signed in?`);
  return b.agent
    .post('/signin')
    .set('X-Forwarded-For', address)
    .type('form')
    .send({ _csrf: csrfIn(page.text), email, password });
}

async function signOut(b: Browser) {
  const home = await b.agent.get('/staff');
  expect(home.status).toBe(200);
  const out = await b.agent
    .post('/signout')
    .type('form')
    .send({ _csrf: csrfIn(home.text) });
  expect(out.status).toBe(303);
}

/** A browser that has signed in to the account (and signed out again): it holds a device cookie. */
async function rememberedBrowser(email: string, address: string) {
  const b = browserAt(address);
  const res = await signIn(b, email, STAFF_PASSWORD);
  expect(res.status).toBe(303);
  const device = deviceCookieIn(res);
  expect(device).toBeDefined();
  await signOut(b);
  return { ...b, device: device as string };
}

const setCookies = (res: request.Response): string[] => {
  const header = res.headers['set-cookie'] as unknown;
  return Array.isArray(header) ? header : header ? [String(header)] : [];
};
const deviceCookieIn = (res: request.Response) =>
  setCookies(res)
    .find((c) => c.startsWith('adk_device='))
    ?.split(';')[0]
    ?.slice('adk_device='.length);

/** A sign-in from a browser with no cookies but the form's and the given device cookie. */
async function signInWithDevice(device: string, email: string, password: string, address: string) {
  const page = await request(h.server).get('/signin').set('X-Forwarded-For', address);
  const csrfCookie = setCookies(page)
    .find((c) => c.startsWith('adk_staff_csrf='))
    ?.split(';')[0];
  return request(h.server)
    .post('/signin')
    .set('X-Forwarded-For', address)
    .set('Cookie', `${csrfCookie}; adk_device=${device}`)
    .type('form')
    .send({ _csrf: csrfIn(page.text), email, password });
}

/** Wrong passwords from the browser until `count` were checked (401), waiting out each delay (429). */
async function wrongPasswords(b: Browser, email: string, count: number): Promise<number[]> {
  const waits: number[] = [];
  let checked = 0;
  while (checked < count) {
    const res = await signIn(b, email, `wrong guess ${checked}`);
    if (res.status === 429) {
      const wait = Number(res.headers['retry-after']);
      waits.push(wait);
      h.clock.advance(wait * 1000);
      continue;
    }
    expect(res.status).toBe(401);
    checked++;
  }
  return waits;
}

const failureRows = async (email: string) =>
  (
    await h.database.query(
      'SELECT address, device, trusted FROM sign_in_failures WHERE email = $1 ORDER BY id',
      [email],
    )
  ).rows as { address: string; device: string | null; trusted: boolean }[];

describe('failed sign-ins slow guessing down and lock nobody out', () => {
  it('when an attacker has tried 50 wrong passwords from one address, then a browser that signed in before signs in at once, from anywhere, and a new browser elsewhere waits at most a minute, never 15', async () => {
    const user = await staffUser(h, org, ['administrator']);
    const office = await rememberedBrowser(user.email, '198.51.100.10');

    const attacker = browserAt('203.0.113.66');
    const waits = await wrongPasswords(attacker, user.email, 50);
    // Five free tries, then 1, 2, 4 … seconds, never more than a minute.
    expect(waits.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(Math.max(...waits)).toBe(60);

    // The browser that signed in before: at once, from its own address and from the attacker's.
    const atDesk = await signIn(office, user.email, STAFF_PASSWORD);
    expect(atDesk.status).toBe(303);
    expect(atDesk.headers.location).toBe('/staff');
    expect((await office.agent.get('/staff')).status).toBe(200);
    await signOut(office);
    expect((await signIn(office, user.email, STAFF_PASSWORD, attacker.address)).status).toBe(303);
    await signOut(office);

    // A new browser elsewhere: told to wait (429, Retry-After, the page says how long), then in.
    const newcomer = browserAt('192.0.2.7');
    const held = await signIn(newcomer, user.email, STAFF_PASSWORD);
    expect(held.status).toBe(429);
    const wait = Number(held.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(held.text).toContain(`Try again in ${wait} seconds`);
    expect(held.text).not.toMatch(/minute|locked/i);
    h.clock.advance(wait * 1000);
    const inNow = await signIn(newcomer, user.email, STAFF_PASSWORD);
    expect(inNow.status).toBe(303);
    expect((await newcomer.agent.get('/staff')).status).toBe(200);

    // The remembered browser's sign-ins counted nothing; every failure is the attacker's, untrusted.
    const rows = await failureRows(user.email);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.address === attacker.address && !r.trusted && r.device === null)).toBe(true);
  });

  it('when wrong passwords come faster than the delays, then only five are checked: the rest, the right one included, get the same 429 without a look at the password', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const attacker = browserAt('203.0.113.67');
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await signIn(attacker, user.email, `guess ${i}`)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    expect(await failureRows(user.email)).toHaveLength(5);

    const wrong = await signIn(attacker, user.email, 'one more guess');
    const right = await signIn(attacker, user.email, STAFF_PASSWORD);
    expect([wrong.status, right.status]).toEqual([429, 429]);
    expect(right.headers['retry-after']).toBe('1');
    expect(withoutTokens(right.text)).toBe(withoutTokens(wrong.text));
    h.clock.advance(1000);
    expect((await signIn(browserAt('192.0.2.8'), user.email, STAFF_PASSWORD)).status).toBe(303);
  });

  it('when a device cookie is forged, edited, or made for another account, then it earns no trust', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const other = await staffUser(h, org, ['adviser']);
    const own = await rememberedBrowser(user.email, '198.51.100.20');
    const others = await rememberedBrowser(other.email, '198.51.100.21');
    await wrongPasswords(browserAt('203.0.113.68'), user.email, 8);

    // <nonce>.<issued>.<key id>.<MAC>: a changed MAC, a changed date, a made-up entry.
    const [nonce, , keyId, mac] = own.device.split('.');
    const edited = `${own.device.slice(0, -1)}${own.device.at(-1) === '0' ? '1' : '0'}`;
    const reissued = `${nonce}.${Math.floor(h.clock.now().getTime() / 1000)}.${keyId}.${mac}`;
    const forged = `${'A'.repeat(22)}.1700000000.local.${'0'.repeat(64)}`;
    for (const device of [edited, reissued, forged, others.device, 'garbage', `${own.device}x`]) {
      const res = await signInWithDevice(device, user.email, STAFF_PASSWORD, '198.51.100.20');
      expect(res.status).toBe(429);
    }
    // The intact cookie, from the same place: in at once.
    expect((await signInWithDevice(own.device, user.email, STAFF_PASSWORD, '198.51.100.20')).status).toBe(
      303,
    );
  });

  it('when a remembered browser types wrong passwords itself, then it waits on its own count (others do not), and after ten it is trusted no more until it signs in again', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const laptop = await rememberedBrowser(user.email, '198.51.100.30');
    const phone = await rememberedBrowser(user.email, '198.51.100.31');

    // Five free, then the laptop waits; the phone and strangers do not.
    for (let i = 0; i < 5; i++) expect((await signIn(laptop, user.email, `typo ${i}`)).status).toBe(401);
    const soon = await signIn(laptop, user.email, STAFF_PASSWORD);
    expect(soon.status).toBe(429);
    expect(soon.headers['retry-after']).toBe('1');
    expect((await signIn(browserAt('192.0.2.9'), user.email, 'stranger guess')).status).toBe(401);
    expect((await signIn(phone, user.email, STAFF_PASSWORD)).status).toBe(303);
    await signOut(phone);
    expect((await failureRows(user.email)).filter((r) => r.trusted)).toHaveLength(5);

    // Five more (waiting each time): ten in a row, and the laptop's cookie is no longer trusted.
    const waits = await wrongPasswords(laptop, user.email, 5);
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    const rows = await failureRows(user.email);
    expect(rows.filter((r) => r.trusted)).toHaveLength(10);
    // Now its attempts count like a stranger's, on the account (one stranger's guess so far, three more).
    await wrongPasswords(browserAt('203.0.113.69'), user.email, 3);
    const distrusted = await signIn(laptop, user.email, 'eleventh typo');
    expect(distrusted.status).toBe(401);
    expect((await failureRows(user.email)).at(-1)).toMatchObject({
      trusted: false,
      device: expect.any(String),
    });
    const held = await signIn(laptop, user.email, STAFF_PASSWORD);
    expect(held.status).toBe(429);
    // The phone, still trusted, is not held; the laptop signs in once the wait is over, trusted anew.
    expect((await signIn(phone, user.email, STAFF_PASSWORD)).status).toBe(303);
    h.clock.advance(Number(held.headers['retry-after']) * 1000);
    const back = await signIn(laptop, user.email, STAFF_PASSWORD);
    expect(back.status).toBe(303);
    expect(deviceCookieIn(back)).not.toBe(laptop.device);
    expect((await failureRows(user.email)).filter((r) => r.device !== null)).toEqual([]);
  });

  it('when one address fails for many accounts, then it waits after twenty (an IPv6 address by its /56 network), while a remembered browser there does not', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const remembered = await rememberedBrowser(user.email, '2001:db8:7:100::1');
    const sprayer = browserAt('2001:db8:7:1aa::5');
    for (let i = 0; i < 20; i++) {
      // Another host of the same /56 each time: one subscriber.
      const res = await signIn(
        sprayer,
        `nobody-${i}@example.test`,
        'spray password 1',
        `2001:db8:7:1${i + 10}::9`,
      );
      expect(res.status).toBe(401);
    }
    const next = await signIn(browserAt('2001:db8:7:1ff::1'), user.email, STAFF_PASSWORD);
    expect(next.status).toBe(429);
    expect(next.headers['retry-after']).toBe('1');
    // Another /56 is not held; the remembered browser inside this one is not either.
    expect((await signIn(browserAt('2001:db8:7:200::1'), user.email, STAFF_PASSWORD)).status).toBe(303);
    expect((await signIn(remembered, user.email, STAFF_PASSWORD)).status).toBe(303);
  });

  it('when a user gets the password right after a few typos, then those typos are forgiven, and a stranger’s failures are not', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const desk = browserAt('198.51.100.40');
    for (let i = 0; i < 2; i++) expect((await signIn(desk, user.email, `typo ${i}`)).status).toBe(401);
    await wrongPasswords(browserAt('203.0.113.70'), user.email, 2);
    expect((await signIn(desk, user.email, STAFF_PASSWORD)).status).toBe(303);
    const left = await failureRows(user.email);
    expect(left.map((r) => r.address)).toEqual(['203.0.113.70', '203.0.113.70']);
  });

  it('when a browser signs in to more accounts than it remembers, then its cookie keeps the last five, names none of them, and lasts a year (HttpOnly, SameSite=Strict)', async () => {
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await staffUser(h, org, ['adviser']));
    const shared = browserAt('198.51.100.50');
    let last: request.Response | undefined;
    for (const u of users) {
      last = await signIn(shared, u.email, STAFF_PASSWORD);
      expect(last.status).toBe(303);
      await signOut(shared);
    }
    const header = setCookies(last as request.Response).find((c) => c.startsWith('adk_device='));
    expect(header).toMatch(/^adk_device=[^;]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict$/);
    const value = deviceCookieIn(last as request.Response) as string;
    expect(value.split('~')).toHaveLength(5);
    expect(value.length).toBeLessThan(1000);
    for (const u of users) expect(value).not.toContain(u.email.split('@')[0]);

    // Every account comes under attack: the five most recent are remembered, the first one not.
    for (const [i, u] of users.entries()) await wrongPasswords(browserAt(`203.0.113.${100 + i}`), u.email, 5);
    const answers = [];
    for (const u of users) {
      const res = await signIn(shared, u.email, STAFF_PASSWORD);
      answers.push(res.status);
      if (res.status === 303) await signOut(shared);
    }
    expect(answers).toEqual([429, 303, 303, 303, 303, 303]);
  });

  it('when an e-mail has accounts in two organisations, then a sign-in to one earns no trust and forgives no guesses at the other', async () => {
    // Another organisation's administrator makes an account with the victim's address and signs in to it.
    const victim = await staffUser(h, org, ['adviser']);
    const elsewhere = await createOrg(h, 'Kantoor Ander');
    const own = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', elsewhere.adminKey)
      .send({ email: victim.email, name: 'Dubbel', groups: ['adviser'] });
    expect(own.status).toBe(201);
    const mine = 'the other office passphrase';
    const set = await h
      .api()
      .put(`/api/v1/admin/users/${own.body._id}/password`)
      .set('x-api-key', elsewhere.adminKey)
      .send({ password: mine });
    expect(set.status).toBe(200);
    const attacker = browserAt('203.0.113.80');
    const first = await signIn(attacker, victim.email, mine);
    expect(first.status).toBe(303);
    expect(deviceCookieIn(first)).toBeDefined();
    await signOut(attacker);
    // The device cookie is worth nothing for a shared address: guesses wait as a stranger's do.
    await wrongPasswords(attacker, victim.email, 5);
    expect((await signIn(attacker, victim.email, 'guess six')).status).toBe(429);
    h.clock.advance(2_000);
    // Its own sign-in does not wipe the guesses: the next wrong one is checked, the one after waits.
    expect((await signIn(attacker, victim.email, mine)).status).toBe(303);
    await signOut(attacker);
    expect((await signIn(attacker, victim.email, 'guess seven')).status).toBe(401);
    expect((await signIn(attacker, victim.email, 'guess eight')).status).toBe(429);
  });

  it('when a device cookie is more than a year old, then it is not trusted any more', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const old = await rememberedBrowser(user.email, '198.51.100.60');
    h.clock.advance(366 * 86_400_000);
    await wrongPasswords(browserAt('203.0.113.72'), user.email, 5);
    expect((await signIn(old, user.email, STAFF_PASSWORD)).status).toBe(429);
  });

  it('when failures have left the window, then the retention sweep removes them', async () => {
    const user = await staffUser(h, org, ['adviser']);
    await wrongPasswords(browserAt('203.0.113.73'), user.email, 3);
    expect(await failureRows(user.email)).toHaveLength(3);
    const config = { jobsDays: null, eventsDays: null, auditDays: null, sweepMs: 3_600_000 };
    // Within the window they stay (the earlier tests' older failures go).
    await sweepRetention(h.database, h.clock.now(), config, undefined, [signInFailuresRetention]);
    expect(await failureRows(user.email)).toHaveLength(3);
    h.clock.advance(15 * 60_000 + 1000);
    const removed = await sweepRetention(h.database, h.clock.now(), config, undefined, [
      signInFailuresRetention,
    ]);
    expect(removed.sign_in_failures).toBeGreaterThanOrEqual(3);
    expect(await failureRows(user.email)).toEqual([]);
  });
});
