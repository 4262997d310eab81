import { englishIn } from './support/english';
import { createOrg, type TestOrg, templateBody } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { csrfIn, signedIn, staffUser } from './support/staff';

// Issue 31, the staff side of test mode: test keys made on a user's page, and the Test inbox page where an
// administrator reads test mode's messages with their codes and links.
let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>['agent'];
let adminId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url });
  org = await createOrg(h, 'Kantoor Testpagina');
  const user = await staffUser(h, org, ['administrator'], 'Anna Admin');
  adminId = user.id;
  admin = (await signedIn(h, user.email)).agent;
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('test mode on the staff pages', () => {
  it('when an administrator opens the test inbox before any test key, then it says how test mode starts', async () => {
    const page = await admin.get('/staff/integrations/test-inbox');
    expect(page.status).toBe(200);
    expect(text(page.text)).toContain('No test data yet. Test mode starts with a test API key:');
    expect(page.text).toContain('<a href="/staff/users">make one on a user’s page (mode Test)</a>');
    const integrations = await admin.get('/staff/integrations');
    expect(integrations.text).toContain('<a href="/staff/integrations/test-inbox">open the test inbox</a>');
  });

  it('when an administrator makes a test key on a user’s page, then it is adk_test_…, listed as Test beside the live keys, and works on test data only', async () => {
    const userPage = await admin.get(`/staff/users/${adminId}`);
    expect(userPage.text).toContain('name="mode" value="live" checked');
    expect(userPage.text).toContain('name="mode" value="test"');
    const made = await admin
      .post(`/staff/users/${adminId}/apikeys`)
      .type('form')
      .send({ _csrf: csrfIn(userPage.text), name: 'CRM sandbox', mode: 'test' });
    expect(made.status).toBe(201);
    const key = /<p class="secret" id="new-key">(adk_test_[0-9A-Za-z]+)<\/p>/.exec(made.text)?.[1];
    expect(key).toBeDefined();
    const live = await admin
      .post(`/staff/users/${adminId}/apikeys`)
      .type('form')
      .send({ _csrf: csrfIn(made.text), name: 'CRM production' });
    expect(live.status).toBe(201);
    const liveKey = /<p class="secret" id="new-key">(adk_[0-9A-Za-z]{38})<\/p>/.exec(live.text)?.[1];
    expect(liveKey).toBeDefined();

    const again = text((await admin.get(`/staff/users/${adminId}`)).text);
    expect(again).toMatch(/CRM production adk_\S+… Live/);
    expect(again).toMatch(/CRM sandbox adk_test_\S+… Test/);
    const contact = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', key!)
      .send({ data: { Voornaam: 'Sandra' } });
    expect(contact.status).toBe(201);
    expect(
      (await h.api().get(`/api/v1/customers/${contact.body._id}`).set('x-api-key', liveKey!)).status,
    ).toBe(404);
  });

  it('when a test action is sent, then the test inbox page shows the invitation with its link, filters by recipient, and nothing was e-mailed', async () => {
    const keys = await h.api().get('/api/v1/admin/apikeys?mode=test').set('x-api-key', org.adminKey);
    expect(keys.body.apiKeys.length).toBeGreaterThan(0);
    const made = await h
      .api()
      .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'script', mode: 'test' });
    const key = made.body.apiKey as string;
    const as = (path: string, body: object) =>
      h.api().post(`/api/v1${path}`).set('x-api-key', key).send(body);
    const template = await as('/questionlists', templateBody());
    const urls: string[] = [];
    for (const [name, email] of [
      ['Tom', 'tom@example.test'],
      ['Ines', 'ines@example.test'],
    ]) {
      const contact = await as('/customers', { data: { Voornaam: name, Email: email } });
      const action = await as('/sessionrequests', {
        type: 'qlist',
        customerId: contact.body._id,
        questionListIds: [template.body._id],
        language: 'en',
        notificationEmail: { send: true },
      });
      expect(action.status).toBe(201);
      urls.push(action.body.url);
      // Each invitation kept a minute after the last: the page's order is theirs.
      await h.jobs.drain();
      h.clock.advance(60_000);
    }
    expect(smtp.received).toEqual([]);

    const page = await admin.get('/staff/integrations/test-inbox');
    expect(page.status).toBe(200);
    for (const url of urls) expect(page.text).toContain(`<a href="${url}">${url}</a>`);
    const words = text(page.text);
    expect(words).toContain('To tom@example.test Channel E-mail What Invitation or reminder');
    expect(words).toContain('To ines@example.test');
    // Newest first: Ines was invited after Tom.
    expect(page.text.indexOf('ines@example.test')).toBeLessThan(page.text.indexOf('tom@example.test'));

    const filtered = await admin.get('/staff/integrations/test-inbox?to=TOM@example.test');
    expect(filtered.text).toContain('tom@example.test');
    expect(filtered.text).not.toContain('ines@example.test');
    expect(filtered.text).toContain('<a href="/staff/integrations/test-inbox">Show all</a>');
    const nobody = await admin.get('/staff/integrations/test-inbox?to=nobody@example.test');
    expect(text(nobody.text)).toContain('No messages.');
  });

  it('when an adviser asks for the test inbox, then 403; in Dutch the page has no English left', async () => {
    const adviser = await staffUser(h, org, ['adviser']);
    const refused = await (await signedIn(h, adviser.email)).agent.get('/staff/integrations/test-inbox');
    expect(refused.status).toBe(403);
    const dutch = await admin.get('/staff/integrations/test-inbox').set('Accept-Language', 'nl');
    const words = text(dutch.text);
    expect(words).toContain('Testinbox');
    expect(words).toContain('Aan tom@example.test Kanaal E-mail Wat Uitnodiging of herinnering');
    // The messages themselves are in the action's language (English here): only the page's own words count.
    const frame = dutch.text.replace(
      /<h2 id="m\d+">[\s\S]*?<\/h2>|<pre class="message">[\s\S]*?<\/pre>/g,
      '',
    );
    expect(englishIn(frame)).toEqual([]);
    const userPage = await admin.get(`/staff/users/${adminId}`).set('Accept-Language', 'nl');
    expect(text(userPage.text)).toContain('werkt alleen op testgegevens');
    // (Its e-mail address, staff-…@example.test, is data.)
    expect(englishIn(userPage.text.replace(/staff-[0-9a-f]+@example\.test/g, ''))).toEqual([]);
  });
});
