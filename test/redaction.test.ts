import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createLogger } from '../src/platform/ops/logger';
import { credentialRoutes, redactUrl, redactValue, withRedaction } from '../src/platform/ops/redaction';
import { samplePdf } from './support/binary';
import { createContact, createOrg, type TestOrg, tenantRows } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startSmtpServer } from './support/peers';
import { createReportTemplate } from './support/submissions';

/**
 * Credentials never reach a log, the audit trail or an error report (docs/security.md): the routes that
 * carry one in their path are found from their declarations, walked with live credentials, and every
 * captured log line, audit row and stored answer is searched for them.
 */
let h: Harness;
let org: TestOrg;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'desk@example.test' });
  org = await createOrg(h, 'Kantoor Geheim');
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const api = (method: 'get' | 'post', path: string) => h.api()[method](path).set('x-api-key', org.adminKey);

/** Live credentials of every kind a route may declare. */
async function liveCredentials(): Promise<Record<string, string[]>> {
  const contact = await createContact(h, org, { Voornaam: 'Sien', Email: 'sien@example.test' });
  const other = await createContact(h, org, { Voornaam: 'Noor', Email: 'noor@example.test' });
  const file = await api('post', '/api/v1/files').attach('file', await samplePdf('Mandate'), 'mandate.pdf');
  const quick = await api('post', '/api/v1/sessionrequests').send({
    type: 'quicksign',
    customerId: contact,
    document: { fileId: file.body._id, title: 'Mandate' },
    notificationEmail: { send: true },
  });
  expect(quick.status).toBe(201);
  const template = await createReportTemplate(h, org);
  const multi = await api('post', '/api/v1/sessionrequests').send({
    type: 'multisigning',
    customerIds: [contact, other],
    questionListIds: [template],
    notificationEmail: { send: true },
  });
  expect(multi.status).toBe(201);
  const signerCode = new URL(multi.body.signers[1].url).pathname.split('/').at(-1) as string;
  const user = await api('post', '/api/v1/admin/users').send({
    email: 'lost.laptop@example.test',
    name: 'Lieve',
    groups: ['adviser'],
  });
  expect((await api('post', `/api/v1/admin/users/${user.body._id}/password-link`)).status).toBe(202);
  await h.jobs.drain();
  await smtp.waitFor(1);
  const mail = smtp.received.find((m) => m.to.includes('lost.laptop@example.test'));
  const token = /\/password\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1] as string;
  expect(token).toHaveLength(43);
  return { 'action link': [quick.body.code, multi.body.code, signerCode], 'password link': [token] };
}

/** Everything lasting the walk may have written, as text. */
async function written(): Promise<string> {
  const audit = await tenantRows<{ t: string }>(
    h,
    org.organisationId,
    sql`SELECT a::text AS t FROM audit_events a`,
  );
  const answers = await tenantRows<{ t: string }>(
    h,
    org.organisationId,
    sql`SELECT i::text AS t FROM idempotency_keys i`,
  );
  return [JSON.stringify(h.logs), ...audit.map((r) => r.t), ...answers.map((r) => r.t)].join('\n');
}

const QUERY_CREDENTIALS = [
  'access_token',
  'refresh_token',
  'token',
  'client_secret',
  'api_key',
  'code',
  'password',
];

describe('credentials in paths and queries', () => {
  it('when every route that declares a credential in its path is walked with a live one, then no log line, audit row or stored answer holds it', async () => {
    const live = await liveCredentials();
    const routes = credentialRoutes();
    // Each kind declared has live values here, and the two kinds the service hands out are declared.
    const kinds = new Set(routes.flatMap((r) => [...r.params.values()]));
    expect([...kinds].sort()).toEqual(Object.keys(live).sort());
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /action/{code}',
        'POST /action/{code}/sign/verify',
        'GET /password/{token}',
      ]),
    );
    const walked: string[] = [];
    for (const route of routes) {
      for (const [name, kind] of route.params) {
        for (const value of live[kind] ?? []) {
          const path = route.path.replace(`{${name}}`, value).replace('{index}', '0').replace('{page}', '1');
          // The same credential in the query too, under every name that is one.
          const query = QUERY_CREDENTIALS.map((q) => `${q}=${value}`).join('&');
          const browser = request.agent(h.server);
          const res =
            route.method === 'GET'
              ? await browser.get(`${path}?${query}`)
              : await browser.post(`${path}?${query}`).type('form').send({ _csrf: value, code: value });
          expect(res.status).toBeLessThan(500);
          walked.push(`${route.method} ${path}`);
        }
      }
    }
    await h.jobs.drain();
    expect(walked.length).toBeGreaterThanOrEqual(routes.length);
    const text = await written();
    for (const value of Object.values(live).flat())
      expect([value, text.includes(value)]).toEqual([value, false]);
    // The request lines were written, with the credential's place marked.
    const urls = h.logs.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean) as string[];
    expect(urls).toEqual(
      expect.arrayContaining([
        '/password/[redacted]?access_token=[redacted]&refresh_token=[redacted]&token=[redacted]&client_secret=[redacted]&api_key=[redacted]&code=[redacted]&password=[redacted]',
      ]),
    );
    expect(
      urls.filter((u) => u.startsWith('/action/[redacted]/documents/0/pages/1?')).length,
    ).toBeGreaterThan(0);
  });

  it('when an API request carries credentials in its query, then they are logged as [redacted], also on the 401 that refuses them', async () => {
    const secret = 'adk_live_notARealKeyButLongEnough';
    const names = [...QUERY_CREDENTIALS, 'ACCESS_TOKEN', '%61pi_key', 'token[]'];
    const query = names.map((n) => `${n}=${secret}`).join('&');
    const before = h.logs.length;
    const refused = await h.api().get(`/api/v1/customers?${query}`);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBeDefined();
    const line = h.logs
      .slice(before)
      .find((l) => (l.req as { url?: string } | undefined)?.url?.startsWith('/api/v1/customers'));
    expect((line?.req as { url?: string } | undefined)?.url).toBe(
      `/api/v1/customers?${names.map((n) => `${n}=[redacted]`).join('&')}`,
    );
    expect(JSON.stringify(h.logs.slice(before))).not.toContain(secret);
  });

  it('when a page or a parameter is not a credential, then its URL is logged as it is', () => {
    expect(redactUrl('/password/forgot?next=%2Fstaff')).toBe('/password/forgot?next=%2Fstaff');
    expect(redactUrl('/password/abc-def_123456789/extra')).toBe('/password/[redacted]/extra');
    expect(redactUrl('/staff/actions/0190')).toBe('/staff/actions/0190');
    expect(redactUrl('/api/v1/customers?limit=5&code=x')).toBe('/api/v1/customers?limit=5&code=[redacted]');
    expect(redactUrl('https://desk.example/action/abcdefghjkmnpqrstvwx/sign#top')).toBe(
      'https://desk.example/action/[redacted]/sign#top',
    );
  });

  it('when an error is reported while a request with a credential is served, then the report holds no credential', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      write: (line: string) => {
        lines.push(JSON.parse(line));
      },
    } as never);
    const token = 'pw_3b1f0c9e7d2a4b6c8e0f1a2b3c4d5e6f';
    withRedaction(() => {
      redactValue(token);
      const err = new Error(`Failed query: select … where token_hash = $1\nparams: ${token}`);
      logger.error({ err, detail: { note: `token ${token}` } }, `could not use ${token}`);
      // Errors nested in an error (an aggregate, a cause) are reported redacted too.
      const inner = Object.assign(new Error(`inner ${token}`), {
        detail: { sql: `where code = '${token}'` },
      });
      logger.error({ err: new AggregateError([inner], 'several failed', { cause: inner }) }, 'nested');
    });
    logger.error({ note: `outside a request ${token}` }, 'not in a request');
    expect(JSON.stringify(lines[0])).not.toContain(token);
    expect(JSON.stringify(lines[1])).not.toContain(token);
    expect(JSON.stringify(lines[1])).toContain('inner [redacted]');
    expect(lines[0]?.msg).toBe('could not use [redacted]');
    expect((lines[0]?.err as { message?: string } | undefined)?.message).toContain('params: [redacted]');
    // Outside a request nothing is known to be a credential: the line is as written.
    expect(JSON.stringify(lines[2])).toContain(token);
  });

  it('when a route reachable without credentials takes a path parameter, then it declares it a credential (or is listed here with why not)', async () => {
    const notCredentials: Record<string, string> = {
      '/signin/org/{organisationId}': 'an organisation’s id picks its sign-in page; it grants nothing',
      '/logos/{organisationId}/{logoId}':
        'a logo’s address is public (in every e-mail and contact page); random only so that it cannot be guessed',
    };
    const doc = (await h.api().get('/api/v1/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { security?: unknown[]; parameters?: { in: string; name: string }[] }>
      >;
    };
    const declared = new Set(credentialRoutes().map((r) => `${r.method} ${r.path}`));
    const undeclared: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const open = Array.isArray(op.security) && op.security.length === 0;
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
        if (!open || inPath.length === 0 || notCredentials[path]) continue;
        if (!declared.has(`${method.toUpperCase()} ${path}`))
          undeclared.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect(declared.size).toBeGreaterThan(10);
  });
});
