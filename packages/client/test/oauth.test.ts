// OAuth client credentials: the client fetches a token from the service's token endpoint, keeps it,
// replaces it before it expires (on the client's injected clock), and replaces a token the service refuses.
import { createOrg, type TestOrg } from '../../../test/support/fixtures';
import { type Harness, startHarness } from '../../../test/support/harness';
import { type ActionDeskClient, ActionDeskError, createClient } from '../src/index.js';

let h: Harness;
let org: TestOrg;
let admin: ActionDeskClient;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  admin = createClient({ baseUrl: h.baseUrl, apiKey: org.adminKey });
});
afterAll(() => h.close());

/** A confidential client-credentials client made through the admin API, with the client's own requests counted. */
async function partner(scopes: ('read' | 'create' | 'update' | 'delete' | 'all')[]) {
  const made = await admin.oauth.createClient({
    name: `Partner ${scopes.join(' ')}`,
    grants: ['client_credentials'],
    scopes,
  });
  expect(made.clientSecret).toMatch(/\S/);
  let now = Date.parse('2026-03-02T09:00:00Z');
  const paths: string[] = [];
  const client = createClient({
    baseUrl: h.baseUrl,
    oauth: { clientId: made.clientId, clientSecret: made.clientSecret as string },
    now: () => now,
    fetch: (input, init) => {
      paths.push(`${init?.method} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
  });
  const tokens = async () => (await admin.oauth.listClientTokens(made._id)).tokens;
  return {
    made,
    client,
    paths,
    tokens,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const TOKEN = 'POST /api/v1/auth/oauth/token';

describe('client credentials', () => {
  it('when calls are made, then one token is fetched and used for all of them', async () => {
    const p = await partner(['read', 'create']);
    const contact = await p.client.customers.create({ data: { Voornaam: 'Via OAuth' } });
    const [read] = await Promise.all([p.client.customers.get(contact._id), p.client.customers.list()]);
    expect(read._id).toBe(contact._id);
    expect(p.paths.filter((x) => x === TOKEN)).toHaveLength(1);
    expect(p.paths[0]).toBe(TOKEN);
    expect(await p.tokens()).toHaveLength(1);
  });

  it('when calls start together before any token, then they wait for the one token fetch', async () => {
    const p = await partner(['read']);
    await Promise.all([p.client.customers.list(), p.client.customers.list(), p.client.portfolios.list()]);
    expect(p.paths.filter((x) => x === TOKEN)).toHaveLength(1);
  });

  it('when the token nears its expiry on the client clock, then a new one is fetched first; not before', async () => {
    const p = await partner(['read']);
    await p.client.customers.list();
    const lifetime = 28_800_000; // expires_in of the service's default configuration
    p.advance(lifetime - 61_000);
    await p.client.customers.list();
    expect(p.paths.filter((x) => x === TOKEN)).toHaveLength(1);
    p.advance(2_000);
    await p.client.customers.list();
    expect(p.paths.filter((x) => x === TOKEN)).toHaveLength(2);
    expect(p.paths.at(-2)).toBe(TOKEN);
    expect(await p.tokens()).toHaveLength(2);
  });

  it('when the service revokes the token, then the next call gets a new token and succeeds', async () => {
    const p = await partner(['read']);
    await p.client.customers.list();
    await admin.oauth.revokeClientTokens(p.made._id);
    const page = await p.client.customers.list();
    expect(page.customers).toEqual(expect.any(Array));
    expect(p.paths).toEqual([
      TOKEN,
      'GET /api/v1/customers',
      'GET /api/v1/customers',
      TOKEN,
      'GET /api/v1/customers',
    ]);
  });

  it('when the secret is wrong, then the token endpoint’s refusal is an ActionDeskError with its OAuth code', async () => {
    const p = await partner(['read']);
    const wrong = createClient({
      baseUrl: h.baseUrl,
      oauth: { clientId: p.made.clientId, clientSecret: 'nope' },
    });
    const err = (await wrong.customers.list().catch((e: unknown) => e)) as ActionDeskError;
    expect(err).toBeInstanceOf(ActionDeskError);
    expect(err).toEqual(
      expect.objectContaining({ status: 401, oauthError: 'invalid_client', operationId: 'oauthToken' }),
    );
    expect(err.requestId).toEqual(expect.any(String));
  });

  it('when a scope is asked, then the token has only it: a write is refused 403', async () => {
    const p = await partner(['read', 'create']);
    const narrow = createClient({
      baseUrl: h.baseUrl,
      oauth: { clientId: p.made.clientId, clientSecret: p.made.clientSecret as string, scope: 'read' },
    });
    await narrow.customers.list();
    const err = (await narrow.customers
      .create({ data: { Voornaam: 'X' } })
      .catch((e: unknown) => e)) as ActionDeskError;
    expect(err.status).toBe(403);
    expect(err.message).toContain('create');
  });
});
