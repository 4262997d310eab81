import { Webhook as Verifier } from 'standardwebhooks';
import { englishIn } from './support/english';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver, type WebhookRequest } from './support/peers';
import { csrfIn, signedIn, staffUser } from './support/staff';

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '2' };

let h: Harness;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  h = await startHarness(ENV);
  org = await createOrg(h);
  receiver = await startWebhookReceiver(() => h.clock.now());
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

/** Whether one of the request's signatures verifies with `secret` (the standardwebhooks package). */
function signedWith(secret: string, req: WebhookRequest): boolean {
  const id = String(req.headers['webhook-id']);
  const at = new Date(Number(req.headers['webhook-timestamp']) * 1000);
  return String(req.headers['webhook-signature'])
    .split(' ')
    .includes(new Verifier(secret).sign(id, at, req.raw));
}

const form = (fields: [string, string][]) =>
  fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const apiWebhook = (id: string) => h.api().get(`/api/v1/webhooks/${id}`).set('x-api-key', org.adminKey);

describe('webhooks on the Integrations page', () => {
  it('when an administrator adds a webhook, then its secret is shown once with a copy button and signs its messages; test, messages, send again, new secret, change, disable and delete work there', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Ann Admin');
    const { agent } = await signedIn(h, admin.email);
    const page = await agent.get('/staff/integrations');
    expect(page.text).toContain('<h2 id="webhooks">Webhooks</h2>');
    expect(page.text).toContain('No webhook yet.');
    const csrf = csrfIn(page.text);

    // Nothing given: both problems named in the form's words, nothing made.
    const empty = await agent
      .post('/staff/integrations/webhooks')
      .type('form')
      .send(form([['_csrf', csrf]]));
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Address: give the address that receives the messages.');
    expect(empty.text).toContain('Send: tick at least one event.');
    const refused = await agent
      .post('/staff/integrations/webhooks')
      .type('form')
      .send(
        form([
          ['_csrf', csrf],
          ['url', 'ftp://crm.example.test/hook'],
          ['events', '*'],
        ]),
      );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Address: refused (must be an http or https URL).');
    expect(refused.text).toContain('value="ftp://crm.example.test/hook"');
    expect((await h.api().get('/api/v1/webhooks').set('x-api-key', org.adminKey)).body.webhooks).toEqual([]);

    const made = await agent
      .post('/staff/integrations/webhooks')
      .type('form')
      .send(
        form([
          ['_csrf', csrf],
          ['url', receiver.url],
          ['description', 'CRM <prod>'],
          ['events', '*'],
        ]),
      );
    expect(made.status).toBe(201);
    expect(made.text).toContain('<h1>CRM &lt;prod&gt;</h1>');
    expect(made.text).toContain('The webhook was added.');
    const secret = /<p class="secret" id="new-secret">(whsec_[A-Za-z0-9+/=]+)<\/p>/.exec(made.text)?.[1];
    expect(secret).toBeDefined();
    expect(made.text).toContain('data-copy="new-secret" data-copied="Copied" hidden>Copy</button>');
    const id = /action="\/staff\/integrations\/webhooks\/([0-9a-f-]{36})\/test"/.exec(made.text)![1]!;
    expect((await apiWebhook(id)).body).toMatchObject({ url: receiver.url, events: ['*'], enabled: true });
    const list = await agent.get('/staff/integrations');
    expect(list.text).toContain(`<a href="/staff/integrations/webhooks/${id}">${receiver.url}</a>`);
    expect(list.text).toContain('All events');
    const again = await agent.get(`/staff/integrations/webhooks/${id}`);
    expect(again.text).not.toContain(secret!);
    expect(again.text).not.toContain('id="new-secret"');

    // A test message: signed with the secret shown, its answer on the page.
    receiver.answer({ status: 202, body: 'thanks <b>' });
    const tested = await agent
      .post(`/staff/integrations/webhooks/${id}/test`)
      .type('form')
      .send({ _csrf: csrf });
    expect(tested.status).toBe(200);
    expect(tested.text).toMatch(/The test message was delivered: your software answered 202 in \d+ ms\./);
    expect(tested.text).toContain('<pre class="sent">thanks &lt;b&gt;</pre>');
    const ping = receiver.received.at(-1)!;
    expect(ping.body).toMatchObject({ type: 'webhook.test' });
    expect(signedWith(secret!, ping)).toBe(true);

    // A real event: listed with what was sent and answered; sent again with the same webhook-id.
    const contact = await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .send({ data: { Voornaam: 'Mila', Email: 'mila@example.test' } });
    expect(contact.status).toBe(201);
    await h.jobs.drain();
    const event = receiver.received.find((r) => r.body.type === 'customer.created')!;
    expect(signedWith(secret!, event)).toBe(true);
    const withMessage = await agent.get(`/staff/integrations/webhooks/${id}`);
    expect(withMessage.text).toContain('Messages sent (1)');
    expect(withMessage.text).toContain('A contact is added<br><code>customer.created</code>');
    expect(withMessage.text).toContain('<span class="status">delivered</span>');
    expect(withMessage.text).toContain(`${contact.body._id}`);
    const delivery = /deliveries\/([0-9a-f-]{36})\/redeliver/.exec(withMessage.text)![1];
    const resent = await agent
      .post(`/staff/integrations/webhooks/${id}/deliveries/${delivery}/redeliver`)
      .type('form')
      .send({ _csrf: csrf });
    expect(resent.status).toBe(303);
    expect(resent.headers.location).toBe(`/staff/integrations/webhooks/${id}?done=redelivered#deliveries`);
    await h.jobs.drain();
    const copies = receiver.received.filter((r) => r.headers['webhook-id'] === event.headers['webhook-id']);
    expect(copies).toHaveLength(2);
    expect((await agent.get(resent.headers.location!)).text).toContain('The message is being sent again.');
    const failedOnly = await agent.get(`/staff/integrations/webhooks/${id}?status=failed`);
    expect(failedOnly.text).toContain('Messages sent (0)');
    expect(failedOnly.text).toContain('<option value="failed" selected>failed</option>');

    // A new secret: shown once, the old one still signs beside it for 24 hours.
    const rotated = await agent
      .post(`/staff/integrations/webhooks/${id}/rotate`)
      .type('form')
      .send({ _csrf: csrf });
    expect(rotated.status).toBe(200);
    const second = /id="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(rotated.text)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(secret);
    expect(rotated.text).toContain('replaced, signs until');
    await agent.post(`/staff/integrations/webhooks/${id}/test`).type('form').send({ _csrf: csrf });
    const both = receiver.received.at(-1)!;
    expect([signedWith(secret!, both), signedWith(second!, both)]).toEqual([true, true]);

    // Change it: only contacts being added.
    const changed = await agent
      .post(`/staff/integrations/webhooks/${id}`)
      .type('form')
      .send(
        form([
          ['_csrf', csrf],
          ['url', receiver.url],
          ['description', ''],
          ['events', 'customer.created'],
        ]),
      );
    expect(changed.status).toBe(303);
    expect((await apiWebhook(id)).body).toMatchObject({ events: ['customer.created'], description: null });
    const noEvents = await agent
      .post(`/staff/integrations/webhooks/${id}`)
      .type('form')
      .send(
        form([
          ['_csrf', csrf],
          ['url', receiver.url],
        ]),
      );
    expect(noEvents.status).toBe(400);
    expect(noEvents.text).toContain('Send: tick at least one event.');
    expect((await apiWebhook(id)).body.events).toEqual(['customer.created']);

    // Disable (asks first), enable, delete (asks first).
    const shown = await agent.get(`/staff/integrations/webhooks/${id}`);
    expect(shown.text).toMatch(
      /<button type="submit" class="danger" data-confirm="Disable this webhook\?[^"]+">Disable<\/button>/,
    );
    expect(shown.text).toMatch(
      /data-confirm="Delete this webhook with its list of messages\? This cannot be undone\.">Delete</,
    );
    const off = await agent
      .post(`/staff/integrations/webhooks/${id}/disable`)
      .type('form')
      .send({ _csrf: csrf });
    expect(off.status).toBe(303);
    expect((await apiWebhook(id)).body.enabled).toBe(false);
    const offPage = await agent.get(off.headers.location!);
    expect(offPage.text).toContain('The webhook is disabled');
    expect(offPage.text).not.toContain('/test"');
    await agent.post(`/staff/integrations/webhooks/${id}/enable`).type('form').send({ _csrf: csrf });
    expect((await apiWebhook(id)).body.enabled).toBe(true);
    const gone = await agent
      .post(`/staff/integrations/webhooks/${id}/delete`)
      .type('form')
      .send({ _csrf: csrf });
    expect(gone.status).toBe(303);
    expect((await agent.get(gone.headers.location!)).text).toContain('The webhook was deleted.');
    expect((await apiWebhook(id)).status).toBe(404);
    expect((await agent.get(`/staff/integrations/webhooks/${id}`)).status).toBe(404);
  });

  it('when an adviser opens a webhook’s page, then 403; another organisation’s webhook is 404', async () => {
    const other = await createOrg(h);
    const theirs = await h
      .api()
      .post('/api/v1/webhooks')
      .set('x-api-key', other.adminKey)
      .send({ url: receiver.url, events: ['*'] });
    const adviser = await staffUser(h, org, ['adviser']);
    const { agent } = await signedIn(h, adviser.email);
    expect((await agent.get('/staff/integrations')).status).toBe(403);
    const admin = await staffUser(h, org, ['administrator']);
    const { agent: mine } = await signedIn(h, admin.email);
    const page = await mine.get(`/staff/integrations/webhooks/${theirs.body._id}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain(receiver.url);
  });

  it('when a Dutch administrator opens Users, a user, Integrations and a webhook, then no English is left', async () => {
    const admin = await staffUser(h, org, ['administrator'], 'Jan Janssens');
    const { agent } = await signedIn(h, admin.email);
    const settings = await agent.get('/staff/settings');
    await agent
      .post('/staff/settings')
      .type('form')
      .send({ _csrf: csrfIn(settings.text), language: 'nl', notify: 'none' });
    await h
      .api()
      .post('/api/v1/admin/oauth/clients')
      .set('x-api-key', org.adminKey)
      .send({ name: 'Boekhouding', type: 'confidential', grants: ['client_credentials'], scopes: ['read'] });
    const made = await agent
      .post('/staff/integrations/webhooks')
      .type('form')
      .send(
        form([
          ['_csrf', csrfIn(settings.text)],
          ['url', receiver.url],
          ['events', 'customer.created'],
          ['events', 'signature.signed'],
        ]),
      );
    expect(made.status).toBe(201);
    expect(made.text).toContain('De webhook is toegevoegd.');
    expect(made.text).toContain('Een contact wordt toegevoegd, Een ondertekenaar tekent');
    const id = /webhooks\/([0-9a-f-]{36})\/test/.exec(made.text)![1];
    await h
      .api()
      .post('/api/v1/customers')
      .set('x-api-key', org.adminKey)
      .send({ data: { Voornaam: 'Lore' } });
    await h.jobs.drain();
    const client = /clients\/([0-9a-f-]{36})"/.exec((await agent.get('/staff/integrations')).text)![1];
    const user = /href="\/staff\/users\/([0-9a-f-]{36})"/.exec((await agent.get('/staff/users')).text)![1];
    await agent
      .post(`/staff/users/${user}/apikeys`)
      .type('form')
      .send({ _csrf: csrfIn(settings.text), name: 'CRM' });
    for (const path of [
      '/staff/users',
      `/staff/users/${user}`,
      '/staff/integrations',
      `/staff/integrations/clients/${client}`,
      `/staff/integrations/webhooks/${id}`,
    ]) {
      const page = await agent.get(path).set('Accept-Language', 'en');
      expect({ path, status: page.status, lang: /<html lang="(\w+)">/.exec(page.text)?.[1] }).toEqual({
        path,
        status: 200,
        lang: 'nl',
      });
      expect({
        path,
        english: englishIn(
          page.text.replace(/<code>[^<]*<\/code>|<pre[^>]*>[^<]*<\/pre>|[\w.+-]+@[\w.-]+/g, ''),
        ),
      }).toEqual({ path, english: [] });
    }
    expect(
      englishIn(made.text.replace(/<code>[^<]*<\/code>|<p class="secret"[^>]*>[^<]*<\/p>/g, '')),
    ).toEqual([]);
  });
});
