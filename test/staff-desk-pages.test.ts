import { createContact, createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { csrfIn, signedIn, staffUser } from './support/staff';
import { createReportTemplate, submitAsContact } from './support/submissions';

let h: Harness;
let org: TestOrg;
let template: string;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  template = await createReportTemplate(h, org);
});
afterAll(() => h.close());

async function browser(groups: string[]) {
  const user = await staffUser(h, org, groups);
  return (await signedIn(h, user.email)).agent;
}

async function action(customerId: string, send = true) {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId, questionListIds: [template], notificationEmail: { send } });
  expect(res.status).toBe(201);
  return res.body as { _id: string; code: string };
}

describe('actions and contacts pages', () => {
  it('when an adviser lists actions, then they can filter by status and search by contact; an unknown status is named', async () => {
    const zofia = await createContact(h, org, {
      Voornaam: 'Zofia',
      Achternaam: 'Żółć',
      Email: 'zofia.zolc@example.test',
    });
    const karel = await createContact(h, org, {
      Voornaam: 'Karel',
      Achternaam: 'Smet',
      Email: 'karel.smet@example.test',
    });
    const a = await action(zofia);
    const b = await action(karel, false);
    const agent = await browser(['adviser']);
    const all = await agent.get('/staff/actions');
    expect(all.status).toBe(200);
    expect(all.text).toContain(`href="/staff/actions/${a._id}">Zofia Żółć</a>`);
    expect(all.text).toContain(`href="/staff/actions/${b._id}">Karel Smet</a>`);
    const created = await agent.get('/staff/actions?status=created');
    expect(created.text).toContain('Karel Smet');
    expect(created.text).not.toContain('Zofia Żółć');
    const found = await agent.get('/staff/actions?q=zolc');
    expect(found.text).toContain('Zofia Żółć');
    expect(found.text).not.toContain('Karel Smet');
    expect(found.text).toContain('<option value="created">');
    // The API takes the same search.
    const api = await h.api().get('/api/v1/sessionrequests?search=ZOFIA').set('x-api-key', org.adminKey);
    expect(api.body.sessionRequests.map((s: { _id: string }) => s._id)).toEqual([a._id]);
    const bad = await agent.get('/staff/actions?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('status');
  });

  it('when an adviser opens a completed action, then its answers, documents and history are there; reopen and withdraw work from the page', async () => {
    const contact = await createContact(h, org, {
      Voornaam: 'Ines',
      Achternaam: 'Claes',
      Email: 'ines@example.test',
    });
    const a = await action(contact);
    await submitAsContact(h, a.code, 'Ines antwoordt');
    await h.jobs.drain();
    const agent = await browser(['adviser']);
    const page = await agent.get(`/staff/actions/${a._id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span class="status">completed</span>');
    expect(page.text).toContain('<dd>Ines antwoordt</dd>');
    expect(page.text).toMatch(/<td>sent<\/td><td>opened<\/td>|<td>opened<\/td><td>completed<\/td>/);
    const pdf = /<a href="(\/files\/downloads\/[^"]+)">/.exec(page.text)?.[1];
    expect(pdf).toBeDefined();
    const download = await agent.get(pdf!).buffer(true);
    expect(download.status).toBe(200);
    expect((download.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');

    const reopened = await agent
      .post(`/staff/actions/${a._id}/reopen`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(reopened.status).toBe(303);
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${a._id}`).set('x-api-key', org.adminKey)).body.status,
    ).toBe('reopened');
    const withdrawn = await agent
      .post(`/staff/actions/${a._id}/withdraw`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(withdrawn.status).toBe(303);
    expect((await agent.get(withdrawn.headers.location!)).text).toContain('The action was withdrawn');
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${a._id}`).set('x-api-key', org.adminKey)).body.status,
    ).toBe('deactivated');
    const again = await agent
      .post(`/staff/actions/${a._id}/withdraw`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Cannot deactivate an action that is deactivated');
  });

  it('when a read-only user opens an action, then they see it without the buttons and cannot withdraw it', async () => {
    const contact = await createContact(h, org, { Voornaam: 'Lode', Email: 'lode@example.test' });
    const a = await action(contact);
    const agent = await browser(['read-only']);
    const page = await agent.get(`/staff/actions/${a._id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/withdraw');
    const refused = await agent
      .post(`/staff/actions/${a._id}/withdraw`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(refused.status).toBe(403);
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${a._id}`).set('x-api-key', org.adminKey)).body.status,
    ).toBe('sent');
  });

  it('when an adviser searches contacts and opens one, then the data and their actions are shown', async () => {
    const contact = await createContact(h, org, {
      Voornaam: 'Ραφαήλ',
      Achternaam: 'Παππάς',
      Email: 'rafail@example.test',
    });
    const a = await action(contact);
    const agent = await browser(['adviser']);
    const list = await agent.get('/staff/contacts?q=rafail');
    expect(list.text).toContain(`href="/staff/contacts/${contact}">Ραφαήλ Παππάς</a>`);
    expect(list.text).toContain('1 contact');
    const page = await agent.get(`/staff/contacts/${contact}`);
    expect(page.text).toContain('<dt>Email</dt><dd>rafail@example.test</dd>');
    expect(page.text).toContain(`href="/staff/actions/${a._id}"`);
    expect((await agent.get('/staff/contacts/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });
});
