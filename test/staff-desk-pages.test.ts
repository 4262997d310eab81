import { samplePdf } from './support/binary';
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
    h.clock.advance(60_000);
    await h.jobs.drain();
    h.clock.advance(60_000);
    await submitAsContact(h, a.code, 'Ines antwoordt');
    await h.jobs.drain();
    const agent = await browser(['adviser']);
    const page = await agent.get(`/staff/actions/${a._id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span class="status">Completed</span>');
    expect(page.text).toContain('<dd>Ines antwoordt</dd>');
    // The timeline tells what happened, in order, each moment in the organisation's zone.
    const story = [
      ...page.text.matchAll(
        /<li><time datetime="([^"]+)" title="Europe\/Brussels">[^<]+<\/time>([^<]+)<\/li>/g,
      ),
    ].map((m) => m[2]);
    const admin = /^(admin-\w+) created and sent the action\.$/.exec(story[0] ?? '')?.[1];
    expect(admin).toBeDefined();
    expect(story).toEqual([
      `${admin} created and sent the action.`,
      'Invitation sent to Ines Claes by e-mail.',
      'Ines Claes opened the link.',
      'Ines Claes completed it.',
    ]);
    expect(page.text).toContain(`<dt>Sent by</dt><dd>${admin}</dd>`);
    const pdf = /<a href="(\/files\/downloads\/[^"]+)" download>/.exec(page.text)?.[1];
    expect(pdf).toBeDefined();
    const download = await agent.get(pdf!).buffer(true);
    expect(download.status).toBe(200);
    expect((download.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');

    // Reopening and withdrawing ask first, naming what follows.
    expect(page.text).toContain(
      'data-confirm="Reopen this action? The contact’s link works again, so they can change their answers and submit them once more."',
    );
    const reopened = await agent
      .post(`/staff/actions/${a._id}/reopen`)
      .type('form')
      .send({ _csrf: csrfIn(page.text) });
    expect(reopened.status).toBe(303);
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${a._id}`).set('x-api-key', org.adminKey)).body.status,
    ).toBe('reopened');
    const reopenedPage = await agent.get(`/staff/actions/${a._id}`);
    expect(reopenedPage.text).toMatch(
      /<button type="submit" class="danger" data-confirm="Withdraw this action\? The contact’s link stops working at once[^"]*">Withdraw<\/button>/,
    );
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
    expect(page.text).toContain('<dt>E-mail address</dt><dd>rafail@example.test</dd>');
    expect(page.text).toContain(`href="/staff/contacts/${contact}/edit"`);
    expect(page.text).toContain(`href="/staff/actions/${a._id}"`);
    expect((await agent.get('/staff/contacts/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('when an adviser asks for another organisation’s action, contact, file page or sent list, then nothing of it is shown', async () => {
    const other = await createOrg(h);
    const theirTemplate = await createReportTemplate(h, other);
    const theirContact = await createContact(h, other, {
      Voornaam: 'Geheim',
      Achternaam: 'Anders',
      Email: 'geheim@example.test',
    });
    const theirs = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', other.adminKey)
      .send({ type: 'qlist', customerId: theirContact, questionListIds: [theirTemplate] });
    const upload = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', other.adminKey)
      .attach('file', await samplePdf('Geheim', 1), 'geheim.pdf');
    expect(upload.status).toBe(201);
    const agent = await browser(['adviser']);
    const action = await agent.get(`/staff/actions/${theirs.body._id}`);
    expect(action.status).toBe(404);
    expect(action.text).not.toContain('Geheim');
    const contact = await agent.get(`/staff/contacts/${theirContact}`);
    expect(contact.status).toBe(404);
    expect(contact.text).not.toContain('Geheim');
    expect((await agent.get(`/staff/files/${upload.body._id}/pages/1`)).status).toBe(404);
    const sent = await agent.get(`/sessionrequests/sent?id=${theirs.body._id}`);
    expect(sent.text).not.toContain(theirs.body._id);
    expect(sent.text).not.toContain(theirs.body.code);
    const list = await agent.get('/staff/actions?q=geheim');
    expect(list.text).toContain('0 actions');
  });

  it('when contact data hold markup, then the staff pages show it as text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const contact = await createContact(h, org, {
      Voornaam: evil,
      Achternaam: '"quoted"',
      Email: 'evil@example.test',
    });
    const a = await action(contact);
    const agent = await browser(['adviser']);
    for (const path of [
      '/staff/actions',
      `/staff/actions/${a._id}`,
      '/staff/contacts?q=evil',
      `/staff/contacts/${contact}`,
    ]) {
      const page = await agent.get(path);
      expect({ path, raw: page.text.includes('<img src=x') }).toEqual({ path, raw: false });
      expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });
  it('when an adviser adds a contact on the desk, then problems are named in the form’s words all at once, a taken CRM reference is named, and the contact is found by name, phone or reference', async () => {
    const agent = await browser(['adviser']);
    const form = await agent.get('/staff/contacts/new');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="phone">Mobile phone</label>');
    const bad = await agent
      .post('/staff/contacts/new')
      .type('form')
      .send({ _csrf: csrfIn(form.text), email: 'not-an-address', phone: '0475' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      '<li><a href="#email">The e-mail address is not valid: it looks like name@example.be.</a></li>',
    );
    expect(bad.text).not.toContain('Give a first name');
    expect(bad.text).toContain('value="not-an-address"');
    expect(bad.text).toContain('aria-invalid="true"');
    const empty = await agent
      .post('/staff/contacts/new')
      .type('form')
      .send({ _csrf: csrfIn(form.text) });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Give a first name, a last name or an e-mail address.');
    expect(empty.text).not.toMatch(/Voornaam|Achternaam|data\./);

    const made = await agent
      .post('/staff/contacts/new')
      .type('form')
      .send({
        _csrf: csrfIn(form.text),
        firstName: 'Hanne',
        lastName: 'Verbruggen',
        email: 'hanne@example.test',
        phone: '+32 475 98 76 54',
        reference: 'CRM-9001',
      });
    expect(made.status).toBe(303);
    const id = /^\/staff\/contacts\/([^?]+)\?done=created$/.exec(made.headers.location ?? '')?.[1];
    expect(id).toBeDefined();
    const stored = await h.api().get(`/api/v1/customers/${id}`).set('x-api-key', org.adminKey);
    expect(stored.body).toMatchObject({
      thirdpartyId: 'CRM-9001',
      data: {
        Voornaam: 'Hanne',
        Achternaam: 'Verbruggen',
        Email: 'hanne@example.test',
        Telefoon: '+32 475 98 76 54',
      },
    });
    expect((await agent.get(made.headers.location!)).text).toContain('The contact is added.');

    // Found by name, by the phone number as written nationally, and by the CRM reference.
    for (const q of ['verbruggen', '0475 98 76 54', '0475/98.76.54', '475987654', 'CRM-9001']) {
      const list = await agent.get(`/staff/contacts?q=${encodeURIComponent(q)}`);
      expect({ q, found: list.text.includes(`href="/staff/contacts/${id}">Hanne Verbruggen</a>`) }).toEqual({
        q,
        found: true,
      });
    }
    expect((await agent.get('/staff/contacts?q=CRM-9001')).text).toContain(
      'The contact with CRM reference CRM-9001.',
    );

    // Another contact cannot take the reference; the form says so on its field.
    const taken = await agent
      .post('/staff/contacts/new')
      .type('form')
      .send({
        _csrf: csrfIn(form.text),
        firstName: 'Tom',
        reference: 'CRM-9001',
      });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain(
      '<li><a href="#reference">Another contact already has CRM reference CRM-9001.</a></li>',
    );

    // Edit: an emptied field is removed, the others changed.
    const edit = await agent.get(`/staff/contacts/${id}/edit`);
    expect(edit.text).toContain('value="+32 475 98 76 54"');
    const saved = await agent
      .post(`/staff/contacts/${id}/edit`)
      .type('form')
      .send({
        _csrf: csrfIn(edit.text),
        firstName: 'Hanne',
        lastName: 'Verbruggen-Peeters',
        email: 'hanne@example.test',
        phone: '',
        reference: 'CRM-9002',
      });
    expect(saved.status).toBe(303);
    const after = await h.api().get(`/api/v1/customers/${id}`).set('x-api-key', org.adminKey);
    expect(after.body.thirdpartyId).toBe('CRM-9002');
    expect(after.body.data).toEqual({
      Voornaam: 'Hanne',
      Achternaam: 'Verbruggen-Peeters',
      Email: 'hanne@example.test',
    });

    // From the send flow: back to its contact step with the new contact ticked.
    const inFlow = await agent
      .post('/staff/contacts/new?from=send')
      .type('form')
      .send({
        _csrf: csrfIn(form.text),
        firstName: 'Lien',
        email: 'lien@example.test',
      });
    expect(inFlow.headers.location).toMatch(/^\/sessionrequests\/new\?contact=[0-9a-f-]+$/);
    const step = await agent.get(inFlow.headers.location!);
    expect(step.text).toMatch(
      /name="contact" value="[0-9a-f-]+" checked><label for="c-0">Lien — lien@example.test/,
    );

    // A read-only user may look, not add.
    const reader = await browser(['read-only']);
    expect((await reader.get('/staff/contacts/new')).status).toBe(403);
  });
});
