import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { queryRows } from '../src/platform/db/database';
import { createContact, createOrg, createTemplate, type TestOrg, templateBody } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

/**
 * Property: whatever a client sends to any write route or list route — hostile keys, characters that
 * cannot be stored, deep nesting, wrong types, wrong content types, unknown, repeated or badly encoded
 * query parameters — the answer is never a 5xx, and a refused request (4xx) changes nothing stored.
 */
let h: Harness;
let org: TestOrg;
let ids: Record<string, string[]>;
let routes: { method: 'get' | 'post' | 'patch' | 'put' | 'delete'; path: string }[];

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  const template = await createTemplate(h, org);
  const contact = await createContact(h, org, {
    Voornaam: 'An',
    Email: 'an@example.test',
    Telefoon: '+32470111222',
  });
  const action = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: contact, questionListIds: [template] });
  const doc = (await h.api().get('/api/v1/openapi.json')).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  // Browser pages under /api/v1 (the OAuth consent page) answer HTML: the page tests cover them.
  const isPage = (op: unknown) => JSON.stringify(op).includes('"text/html"');
  routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter(() => path.startsWith('/api/v1/') && path !== '/api/v1/openapi.json')
      .filter((m) => !isPage(methods[m]))
      .filter((m) => m !== 'get' || !path.includes('{'))
      .map((m) => ({ method: m as 'get', path })),
  );
  ids = {
    customerId: [contact],
    questionListId: [template],
    actionId: [action.body._id],
    userId: [org.adminId],
    portfolioId: [org.portfolioId],
  };
});
afterAll(() => h.close());

/**
 * A fingerprint of everything stored, read as the owner (all organisations; api key use times aside:
 * reads record them). Each table's row count and its newest row version: every insert or update writes a row
 * version stamped with its transaction's id (`xmin`), which is newer than any before it, and a delete
 * lowers the count — so any committed change moves the fingerprint, without reading every row as text.
 */
async function stored(): Promise<string> {
  const tables = [
    'customers',
    'portfolios',
    'users',
    'question_lists',
    'question_list_versions',
    'session_requests',
    'session_request_events',
    'jobs',
    'files',
    'sessions',
  ];
  const versions = sql.join(
    tables.map(
      (t) => sql`(SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM ${sql.identifier(t)})`,
    ),
    sql`, `,
  );
  const [row] = await h.database.ownerTransaction((tx) =>
    queryRows<{ d: string }>(
      tx,
      sql`SELECT concat_ws('|', ${versions},
        (SELECT md5(string_agg(concat_ws(':', t.id, t.name, t.revoked_at), ',' ORDER BY t.id)) FROM api_keys t)
      ) AS d`,
    ),
  );
  return row!.d;
}

// --- generators -------------------------------------------------------------------------------------

const hostileKey = fc.oneof(
  fc.constantFrom(
    'constructor',
    '__proto__',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'prototype',
    '__defineGetter__',
    'data',
    '_id',
    'organisationId',
    'type',
    'customerId',
    'status',
    'sections',
    'questions',
    'id',
    'options',
    '',
    ' ',
    'a\u0000b',
    '\ud800',
    'x'.repeat(300),
    'Voornaam',
    'Email',
  ),
  fc.string({ maxLength: 12 }),
);
const hostileLeaf = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('\u0000', '\ud800x', '\udfff', '1e309', 'NaN', '-0', '%zz', '<script>', 'x'.repeat(5000)),
  fc.uuid(),
  fc.constantFrom(
    'qlist',
    'campaign',
    'quicksign',
    'multisigning',
    'nl',
    'fr',
    'en',
    'short_text',
    'single_choice',
  ),
);
type Tree = { leaf: unknown } | { list: Tree[] } | { entries: [string, Tree][] };
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileLeaf.map((leaf) => ({ leaf })),
    fc.array(tie('tree'), { maxLength: 4 }).map((list) => ({ list })),
    fc.array(fc.tuple(hostileKey, tie('tree')), { maxLength: 5 }).map((entries) => ({ entries })),
  ),
}));

/** JSON text of a tree, written by hand so that keys like __proto__ reach the server as they are. */
function json(t: Tree): string {
  if ('leaf' in t) return t.leaf === undefined ? 'null' : (JSON.stringify(t.leaf) ?? 'null');
  if ('list' in t) return `[${t.list.map(json).join(',')}]`;
  return `{${t.entries.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(',')}}`;
}

/** Valid-looking bodies to graft hostile parts onto, so requests also reach the deeper checks. */
const bases = (): Record<string, unknown>[] => [
  { data: { Voornaam: 'A' } },
  templateBody(),
  { type: 'qlist', customerId: ids.customerId![0], questionListIds: ids.questionListId },
  { type: 'quicksign', customerId: ids.customerId![0], document: { fileId: ids.customerId![0], title: 'x' } },
  { name: 'Team', email: 'x@example.test', groups: ['adviser'] },
  { notificationEmail: { send: true } },
  {},
];
const deepNest = fc
  .integer({ min: 20, max: 2_000 })
  .map((n) => `{"data":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`);
const body = fc.oneof(
  tree.map(json),
  fc
    .tuple(fc.nat(6), fc.array(fc.tuple(hostileKey, tree), { maxLength: 4 }), fc.boolean())
    .map(([i, extra, inData]) => {
      const base = bases()[i]!;
      const own = Object.entries(base).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
      const grafted = extra.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`);
      if (inData)
        return `{${[...own.filter((p) => !p.startsWith('"data"')), `"data":{"Voornaam":"A",${grafted.join(',') || '"x":"y"'}}`].join(',')}}`;
      return `{${[...own, ...grafted].join(',')}}`;
    }),
  deepNest,
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '1',
    'true',
    '{"a":1}{"b":2}',
    '\u0000',
    '{"a":"\\ud800"}',
  ),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  undefined,
);
const queryName = fc.oneof(
  hostileKey,
  fc.constantFrom(
    'page',
    'limit',
    'search',
    'status',
    'portfolioId',
    'includeInactive',
    'type',
    'customerId',
    'sessionRequestId',
    'thirdpartyId',
    'updatedSince',
    'userId',
  ),
);
/** Percent-encoding of any string; a lone surrogate goes out as its (invalid) UTF-8 bytes. */
const encode = (s: string) => encodeURIComponent(s.toWellFormed()).replace(/%EF%BF%BD/g, '%ED%A0%80');
const queryValue = fc.oneof(
  hostileLeaf.map((v) => encode(String(v))),
  fc.constantFrom(
    '%zz',
    '%',
    '%00',
    '%ud800',
    '%C0%AF',
    '%ED%A0%80',
    '1e999',
    '-1',
    '0',
    '101',
    '1.5',
    'true',
    'x'.repeat(3000),
  ),
);
const query = fc
  .array(fc.tuple(queryName, queryValue, fc.boolean()), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v, raw]) => `${raw ? k : encode(k)}=${v}`).join('&'));
const pathValue = fc.oneof(
  fc.constantFrom('existing', 'existing', 'existing'),
  fc.constantFrom(
    '%zz',
    '%00',
    'constructor',
    '__proto__',
    '..',
    '01900000-0000-7000-8000-000000000000',
    'x'.repeat(500),
  ),
);

// --- the property -----------------------------------------------------------------------------------

it('when 2,000 hostile requests reach every write and list route, then none answers 5xx and no refused one changes anything', async () => {
  // The fingerprint moves with a change of one value in one row.
  const unchanged = await stored();
  const renamed = await h
    .api()
    .patch(`/api/v1/customers/${ids.customerId![0]}`)
    .set('x-api-key', org.adminKey)
    .send({ data: { Voornaam: 'Anne' } });
  expect(renamed.body).toMatchObject({ data: { Voornaam: 'Anne' } });
  let before = await stored();
  expect(before).not.toBe(unchanged);
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.nat(routes.length - 1),
      body,
      contentType,
      query,
      pathValue,
      async (routeIndex, sentBody, type, sentQuery, pathChoice) => {
        const route = routes[routeIndex]!;
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          pathChoice === 'existing' ? (ids[name]?.[0] ?? pathChoice) : pathChoice,
        );
        const url = `${path}${sentQuery ? `?${sentQuery}` : ''}`;
        let req = h.api()[route.method](url).set('x-api-key', org.adminKey);
        if (route.method !== 'get') {
          if (type) req = req.set('content-type', type);
          req = req.send(sentBody);
        }
        const res = await req;
        const label = `${route.method} ${route.path} ${res.status}`;
        seen.set(label, (seen.get(label) ?? 0) + 1);
        if (res.status >= 500)
          throw new Error(`${res.status} for ${route.method} ${url}: ${sentBody.slice(0, 300)}`);
        if (res.status >= 400) {
          expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
          const after = await stored();
          if (after !== before)
            throw new Error(`refused ${res.status} but stored a change: ${route.method} ${url}`);
        } else if (route.method !== 'get') {
          before = await stored();
        }
      },
    ),
    { numRuns: 2_000, seed: Number(process.env.FC_SEED ?? 20261122) },
  );
  // Every route was exercised, and requests got past the first checks on some of them.
  const routesHit = new Set([...seen.keys()].map((k) => k.split(' ').slice(0, 2).join(' ')));
  expect(routesHit.size).toBe(routes.length);
  expect([...seen.keys()].some((k) => / 2\d\d$/.test(k))).toBe(true);
}, 600_000);
