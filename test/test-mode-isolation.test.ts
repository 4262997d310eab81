import { samplePdf } from './support/binary';
import { createOrg, type TestOrg, templateBody } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startWebhookReceiver } from './support/peers';
import { submitAsContact } from './support/submissions';

// Issue 31: a live key sees no test record and a test key no live record, on every list and get route
// of the OpenAPI document (walked, not listed by hand: a route added later is walked too).
let h: Harness;
let org: TestOrg;
let testKey: string;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  org = await createOrg(h, 'Kantoor Apart');
  const made = await h
    .api()
    .post(`/api/v1/admin/users/${org.adminId}/apikeys`)
    .set('x-api-key', org.adminKey)
    .send({ name: 'sandbox', mode: 'test' });
  testKey = made.body.apiKey;
});
afterAll(async () => {
  await h.close();
  await hooks.close();
});

/** One of everything an integrator makes, made with `key`; answers every id the answers named. */
async function recordsOf(key: string, tag: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const post = async (path: string, body: object) => {
    const res = await h.api().post(`/api/v1${path}`).set('x-api-key', key).send(body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    for (const [k, v] of Object.entries(res.body as Record<string, unknown>))
      if (/^(_id|id|setupId|actionSetupId|clientId)$/.test(k) && typeof v === 'string') ids.add(v);
    return res.body;
  };
  const contact = await post('/customers', { data: { Voornaam: tag, Email: `${tag}@example.test` } });
  const portfolio = await post('/portfolios', { name: `Portfolio ${tag}` });
  const template = await post(
    '/questionlists',
    templateBody({
      name: `Template ${tag}`,
      supportedLanguages: ['nl'],
      sections: [
        {
          id: 's',
          title: { nl: 'Vraag' },
          questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' }, required: true }],
        },
      ],
    }),
  );
  const upload = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', key)
    .attach('file', await samplePdf(tag, 1), `${tag}.pdf`);
  ids.add(upload.body._id);
  const answered = await post('/sessionrequests', {
    type: 'qlist',
    customerId: contact._id,
    questionListIds: [template._id],
    language: 'nl',
  });
  await submitAsContact(h, answered.code); // a session, its version and report
  const sessions = await h.api().get('/api/v1/sessions').set('x-api-key', key);
  for (const session of sessions.body.sessions as { _id: string }[]) ids.add(session._id);
  await post('/sessionrequests', {
    type: 'quicksign',
    customerId: contact._id,
    document: { fileId: upload.body._id, title: `Document ${tag}` },
  });
  await post('/webhooks', { url: hooks.url, events: ['*'] });
  await post('/quicksigningsetup', {
    customer: { firstname: tag, lastname: 'Setup', email: `${tag}.setup@example.test` },
    document: { fileid: upload.body._id, title: 'Contract' },
  });
  await post('/bc/actionsetup', { customers: [{ email: `${tag}.action@example.test` }] });
  await post('/admin/oauth/clients', {
    name: `Client ${tag}`,
    grants: ['client_credentials'],
    scopes: ['read'],
  });
  void portfolio;
  await h.jobs.drain(); // events, webhook deliveries
  return ids;
}

it('when every list and get route of the OpenAPI document is walked with a live key and a test key, then neither answers a record of the other mode', async () => {
  const live = await recordsOf(org.adminKey, 'live');
  const test = await recordsOf(testKey, 'test');
  const doc = (await h.api().get('/api/v1/openapi.json')).body as {
    paths: Record<string, { get?: { parameters?: { in: string; name: string }[] } }>;
  };
  // Users are the same people in both modes (same ids, by design); the rest is walked.
  const shared = /^\/api\/v1\/(admin\/users|openapi\.json|auth\/)/;
  const routes = Object.keys(doc.paths).filter(
    (p) => p.startsWith('/api/v1/') && doc.paths[p]!.get && !shared.test(p),
  );
  const lists = routes.filter((p) => !p.includes('{'));
  const gets = routes.filter((p) => (p.match(/\{/g) ?? []).length === 1);
  expect(lists).toEqual(
    expect.arrayContaining(['/api/v1/customers', '/api/v1/sessionrequests', '/api/v1/events']),
  );
  expect(gets).toEqual(expect.arrayContaining(['/api/v1/customers/{customerId}', '/api/v1/files/{fileId}']));
  let walked = 0;
  for (const [key, own, other] of [
    [org.adminKey, live, test],
    [testKey, test, live],
  ] as const) {
    for (const path of lists) {
      const res = await h.api().get(path).set('x-api-key', key);
      const text = JSON.stringify(res.body);
      const leaked = [...other].filter((id) => text.includes(id));
      expect({ path, leaked }).toEqual({ path, leaked: [] });
      walked++;
    }
    // Each record of the other mode, asked for by id on every get route: never there.
    for (const path of gets) {
      for (const id of other) {
        const res = await h
          .api()
          .get(path.replace(/\{[^}]+\}/, id))
          .set('x-api-key', key);
        expect({ path, id, status: res.status === 200 ? 200 : 'refused' }).toEqual({
          path,
          id,
          status: 'refused',
        });
        walked++;
      }
      // And the route does find its own kind of record (the walk would prove nothing on a broken route).
      const found = await Promise.all(
        [...own].map(
          async (id) =>
            (
              await h
                .api()
                .get(path.replace(/\{[^}]+\}/, id))
                .set('x-api-key', key)
            ).status,
        ),
      );
      // (The test inbox's messages and SSO providers are not among the records made.)
      if (!/\/test\/|\/sso\//.test(path))
        expect({ path, found: found.includes(200) }).toEqual({ path, found: true });
    }
  }
  expect(walked).toBeGreaterThan(200);
});
