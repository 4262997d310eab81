import request from 'supertest';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';

let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'desk@example.test' });
  org = await createOrg(h);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const PASSWORD = 'correct horse battery staple';
let n = 0;

/** A staff user of `org` with a password set by the administrator. */
async function staffUser(groups: string[] = ['adviser'], password = PASSWORD) {
  const email = `adviser-${++n}@example.test`;
  const created = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name: `Adviser ${n}`, kind: 'staff', groups });
  expect(created.status).toBe(201);
  const set = await h
    .api()
    .put(`/api/v1/admin/users/${created.body._id}/password`)
    .set('x-api-key', org.adminKey)
    .send({ password });
  expect(set.body).toEqual({ success: true });
  return { id: created.body._id as string, email, name: `Adviser ${n}` };
}

const csrfIn = (text: string) => /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? '';

/** A browser: keeps its cookies. */
async function signIn(email: string, password = PASSWORD, next?: string) {
  const agent = request.agent(h.server);
  const page = await agent.get(`/signin${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  expect(page.status).toBe(200);
  const res = await agent
    .post('/signin')
    .type('form')
    .send({ _csrf: csrfIn(page.text), email, password, ...(next ? { next } : {}) });
  return { agent, res };
}

describe('staff sign-in', () => {
  it('when a user signs in with the right password, then a server-side session starts (HttpOnly, SameSite=Lax cookie) and the staff pages open', async () => {
    const user = await staffUser();
    const { agent, res } = await signIn(user.email.toUpperCase());
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/staff');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/adk_staff=s%3A[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax/);
    const home = await agent.get('/staff');
    expect(home.status).toBe(200);
    expect(home.text).toContain(`Welcome, ${user.name}`);
    expect(home.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'nonce-/);
    expect(home.headers['cache-control']).toBe('no-store');
    const [row] = (await h.database.query('SELECT sess FROM staff_sessions')).rows;
    expect(row).toBeDefined();
  });

  it('when the password or the e-mail is wrong, then the form comes back with the same message for both, and no session starts', async () => {
    const user = await staffUser();
    const wrong = await signIn(user.email, 'not the password at all');
    const unknown = await signIn('nobody-here@example.test', PASSWORD);
    for (const { res } of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.text).toContain('The e-mail address or the password is not right.');
      expect(res.headers['set-cookie'] ?? []).not.toEqual(
        expect.arrayContaining([expect.stringContaining('adk_staff=')]),
      );
    }
    expect((await wrong.agent.get('/staff')).status).toBe(303);
  });

  it('when five wrong passwords were tried for an account, then the next attempt must wait a second (429 with Retry-After, the password unchecked), and then the right one signs in: no lock', async () => {
    const user = await staffUser();
    for (let i = 0; i < 5; i++) expect((await signIn(user.email, `wrong guess ${i}`)).res.status).toBe(401);
    const held = await signIn(user.email);
    expect(held.res.status).toBe(429);
    expect(held.res.headers['retry-after']).toBe('1');
    expect(held.res.text).toContain('Too many failed sign-ins. Try again in 1 second,');
    h.clock.advance(1000);
    const after = await signIn(user.email);
    expect(after.res.status).toBe(303);
    // The browser is remembered for the account (its device cookie).
    expect(String(after.res.headers['set-cookie'])).toMatch(
      /adk_device=[^;]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict/,
    );
  });

  it('when a signed-out browser opens a staff page, then it is sent to sign in and straight back afterwards; a next that leaves the site is ignored', async () => {
    const user = await staffUser();
    const anonymous = await request(h.server).get('/staff?x=1');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe(`/signin?next=${encodeURIComponent('/staff?x=1')}`);
    const back = await signIn(user.email, PASSWORD, '/staff?x=1');
    expect(back.res.headers.location).toBe('/staff?x=1');
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const away = await signIn(user.email, PASSWORD, evil);
      expect(away.res.headers.location).toBe('/staff');
    }
  });

  it('when the form has no CSRF token, then the post is refused with 403 and nothing changes; sign-out with the token ends the session', async () => {
    const user = await staffUser();
    const { agent } = await signIn(user.email);
    const forged = await agent.post('/signout').type('form').send({});
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired');
    const home = await agent.get('/staff');
    expect(home.status).toBe(200);
    const out = await agent
      .post('/signout')
      .type('form')
      .send({ _csrf: csrfIn(home.text) });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/signin?signedOut=1');
    expect((await agent.get('/staff')).status).toBe(303);
  });

  it('when the browser session calls the API, then reads work and writes need the CSRF token, while x-api-key needs none', async () => {
    const user = await staffUser();
    const { agent } = await signIn(user.email);
    const body = { customers: [{ firstname: 'A', lastname: 'B', email: 'a.b@example.test' }] };
    const noToken = await agent.post('/api/v1/bc/actionsetup').send(body);
    expect(noToken.status).toBe(403);
    expect(noToken.body).toMatchObject({ success: false, code: 403, error: expect.stringContaining('CSRF') });
    const token = csrfIn((await agent.get('/staff')).text);
    const withToken = await agent.post('/api/v1/bc/actionsetup').set('x-csrf-token', token).send(body);
    expect(withToken.status).toBe(200);
    const read = await agent.get(`/api/v1/bc/actionsetup/${withToken.body.actionSetupId}`);
    expect(read.status).toBe(200);
    expect(read.body.customers[0]).toMatchObject({ email: 'a.b@example.test' });
    // A server with an API key sends no CSRF token: accepted (spec 5.1.5).
    const byKey = await h.api().post('/api/v1/bc/actionsetup').set('x-api-key', org.adminKey).send(body);
    expect(byKey.status).toBe(200);
    // Routes that do not take browser sessions still ask for the API key.
    const contacts = await agent.get('/api/v1/customers');
    expect(contacts.status).toBe(401);
  });

  it('when an administrator deactivates a user, then their open browser session is refused on the next request and ended', async () => {
    const user = await staffUser();
    const { agent } = await signIn(user.email);
    expect((await agent.get('/staff')).status).toBe(200);
    const off = await h
      .api()
      .post(`/api/v1/admin/users/${user.id}/deactivate`)
      .set('x-api-key', org.adminKey);
    expect(off.status).toBe(200);
    const next = await agent.get('/staff');
    expect(next.status).toBe(303);
    expect(next.headers.location).toBe(`/signin?next=%2Fstaff&ended=deactivated`);
    expect((await agent.get(next.headers.location!)).text).toContain('Your account has been deactivated.');
    const rows = (
      await h.database.query(`SELECT sess FROM staff_sessions WHERE sess::text LIKE '%${user.id}%'`)
    ).rows;
    expect(rows).toEqual([]);
    // And a deactivated user cannot sign in again.
    expect((await signIn(user.email)).res.text).toContain('deactivated');
  });

  it('when a session is idle past STAFF_IDLE_MINUTES or older than STAFF_SESSION_HOURS, then it ends', async () => {
    const user = await staffUser();
    const idle = await signIn(user.email);
    h.clock.advance(61 * 60_000);
    const after = await idle.agent.get('/staff');
    expect(after.status).toBe(303);
    expect(after.headers.location).toContain('ended=timeout');
    expect((await request(h.server).get(after.headers.location!)).text).toContain('Your session has ended.');

    const busy = await signIn(user.email);
    // 55 minutes apart, never idle long enough; the 14th request comes 770 minutes after sign-in.
    for (let i = 0; i < 14; i++) {
      h.clock.advance(55 * 60_000);
      const page = await busy.agent.get('/staff');
      if (i < 13) expect(page.status).toBe(200);
      else expect(page.status).toBe(303);
    }
  });

  it('when a user sets a new password through an e-mailed link, then the link works once, other sessions end, and this browser is signed in', async () => {
    const user = await staffUser();
    const elsewhere = await signIn(user.email);
    const sent = await h
      .api()
      .post(`/api/v1/admin/users/${user.id}/password-link`)
      .set('x-api-key', org.adminKey);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({
      success: true,
      expiresAt: new Date(h.clock.now().getTime() + 24 * 3_600_000).toISOString(),
    });
    const before = smtp.received.length;
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.subject).toContain('Reset your ActionDesk password');
    const link = /https?:\/\/\S+\/password\/([A-Za-z0-9_-]{43})/.exec(mail.text);
    expect(link).not.toBeNull();
    const path = `/password/${link![1]}`;

    const browser = request.agent(h.server);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect(form.text).toContain(user.email);
    const token = csrfIn(form.text);
    const mismatch = await browser
      .post(path)
      .type('form')
      .send({ _csrf: token, password: 'a new long passphrase', confirm: 'different' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The two passwords are not the same.');
    const short = await browser
      .post(path)
      .type('form')
      .send({ _csrf: token, password: 'short', confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 12 characters');
    h.clock.advance(1000);
    const done = await browser
      .post(path)
      .type('form')
      .send({ _csrf: token, password: 'a new long passphrase', confirm: 'a new long passphrase' });
    expect(done.status).toBe(303);
    expect(String(done.headers['set-cookie'])).toContain('adk_device=');
    expect((await browser.get('/staff')).status).toBe(200);
    // The session that signed in before the change has ended.
    expect((await elsewhere.agent.get('/staff')).headers.location).toContain('ended=password');
    // A second use of the link is refused.
    const again = await browser
      .post(path)
      .type('form')
      .send({
        _csrf: csrfIn((await browser.get('/staff')).text),
        password: 'yet another passphrase',
        confirm: 'yet another passphrase',
      });
    expect(again.status).toBe(410);
    expect(again.text).toContain('already been used');
    expect((await signIn(user.email, 'a new long passphrase')).res.status).toBe(303);
    expect((await signIn(user.email, 'yet another passphrase')).res.status).toBe(401);
  });

  it('when someone asks for a reset link, then the answer is the same for known and unknown addresses and only a real account gets mail', async () => {
    const user = await staffUser();
    const ask = async (email: string) => {
      const agent = request.agent(h.server);
      const page = await agent.get('/password/forgot');
      return agent
        .post('/password/forgot')
        .type('form')
        .send({ _csrf: csrfIn(page.text), email });
    };
    const before = smtp.received.length;
    const unknown = await ask('no-such-person@example.test');
    const known = await ask(user.email);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.text.replace('no-such-person@example.test', 'X')).toBe(
      known.text.replace(user.email, 'X').replace(/value="[^"]+"/g, ''),
    );
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((m) => m.to[0])).toEqual([user.email]);
    const bad = await ask('not an address');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Give an e-mail address');
  });

  it('when an administrator sets a weak password or one for a service user, then the API names the problem', async () => {
    const user = await staffUser();
    const weak = await h
      .api()
      .put(`/api/v1/admin/users/${user.id}/password`)
      .set('x-api-key', org.adminKey)
      .send({ password: 'aaaaaaaaaaaaaaaa' });
    expect(weak.status).toBe(400);
    expect(weak.body.details).toEqual([
      { field: 'password', in: 'body', message: 'must not repeat the same few characters' },
    ]);
    const service = await h
      .api()
      .post('/api/v1/admin/users')
      .set('x-api-key', org.adminKey)
      .send({ email: 'robot@example.test', name: 'CRM', kind: 'service', groups: ['adviser'] });
    const refused = await h
      .api()
      .put(`/api/v1/admin/users/${service.body._id}/password`)
      .set('x-api-key', org.adminKey)
      .send({ password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('Service users do not sign in');
  });

  it('when a sign-in link carries its own words in ended, then the page shows none of them', async () => {
    const page = await request(h.server).get('/signin?ended=Security+alert:+call+%2B1+555+0100');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Security alert');
    expect(page.text).not.toContain('class="notice"');
  });

  it('when wrong passwords for one account arrive all at once, then no more than five are checked and the rest are refused with 429', async () => {
    const user = await staffUser();
    const browsers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const agent = request.agent(h.server);
        return { agent, token: csrfIn((await agent.get('/signin')).text) };
      }),
    );
    const answers = await Promise.all(
      browsers.map(({ agent, token }, i) =>
        agent
          .post('/signin')
          .type('form')
          .send({ _csrf: token, email: user.email, password: `wrong guess ${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const rows = await h.database.query('SELECT count(*)::int AS n FROM sign_in_failures WHERE email = $1', [
      user.email,
    ]);
    expect(rows.rows[0]?.n).toBe(statuses.filter((s) => s === 401).length);
  });

  it('when a form carries a token that is not this session’s (one from before sign-in, or another user’s), then it is refused with 403', async () => {
    const a = await staffUser();
    const b = await staffUser();
    const agent = request.agent(h.server);
    const before = csrfIn((await agent.get('/signin')).text);
    const signed = await agent
      .post('/signin')
      .type('form')
      .send({ _csrf: before, email: a.email, password: PASSWORD });
    expect(signed.status).toBe(303);
    // The cookie still holds the token made before sign-in: bound to no session, it is refused now.
    expect((await agent.post('/signout').type('form').send({ _csrf: before })).status).toBe(403);
    const other = await signIn(b.email);
    const theirs = csrfIn((await other.agent.get('/staff')).text);
    expect((await agent.post('/signout').type('form').send({ _csrf: theirs })).status).toBe(403);
    expect((await agent.get('/staff')).status).toBe(200);
  });

  it('when an administrator sets a password after sending a link, then the link no longer works', async () => {
    const user = await staffUser();
    await h.api().post(`/api/v1/admin/users/${user.id}/password-link`).set('x-api-key', org.adminKey);
    const before = smtp.received.length;
    await h.jobs.drain();
    await smtp.waitFor(before + 1);
    const token = /\/password\/([A-Za-z0-9_-]{43})/.exec(smtp.received.at(-1)!.text)?.[1];
    await h
      .api()
      .put(`/api/v1/admin/users/${user.id}/password`)
      .set('x-api-key', org.adminKey)
      .send({ password: 'the administrator chose this' });
    const page = await request(h.server).get(`/password/${token}`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('already been used');
  });

  it('when one e-mail has accounts in two organisations, then the password picks the one it fits, or the user chooses when it fits both', async () => {
    const second = await createOrg(h, 'Second Office');
    const email = `two.offices.${Date.now()}@example.test`;
    const make = async (o: TestOrg, name: string, password: string) => {
      const u = await h
        .api()
        .post('/api/v1/admin/users')
        .set('x-api-key', o.adminKey)
        .send({ email, name, groups: ['adviser'] });
      await h
        .api()
        .put(`/api/v1/admin/users/${u.body._id}/password`)
        .set('x-api-key', o.adminKey)
        .send({ password });
      return u.body._id as string;
    };
    await make(org, 'In the first', PASSWORD);
    const secondId = await make(second, 'In the second', 'another long passphrase');
    const direct = await signIn(email, 'another long passphrase');
    expect(direct.res.status).toBe(303);
    expect((await direct.agent.get('/staff')).text).toContain('Welcome, In the second');

    await h
      .api()
      .put(`/api/v1/admin/users/${secondId}/password`)
      .set('x-api-key', second.adminKey)
      .send({ password: PASSWORD });
    const both = await signIn(email);
    expect(both.res.status).toBe(409);
    expect(both.res.text).toContain('more than one organisation');
    expect(both.res.text).toContain('Second Office');
    const choice = /name="organisationId" value="([^"]+)"[^>]*>\s*<label[^>]*>Second Office/.exec(
      both.res.text,
    )?.[1];
    expect(choice).toBe(second.organisationId);
    const chosen = await both.agent
      .post('/signin')
      .type('form')
      .send({ _csrf: csrfIn(both.res.text), email, password: PASSWORD, organisationId: choice });
    expect(chosen.status).toBe(303);
    expect((await both.agent.get('/staff')).text).toContain('Welcome, In the second');
  });
});
