// npm run bench:customers — seeds 100,000 contacts in one organisation, then loads GET /api/v1/customers
// (plain page — with the API key and with an OAuth bearer token —, deep page, search) on the API and on a
// bare node:http reference running the same SQL,
// first on the PostgreSQL server named by DATABASE_URL (if set), then on the embedded default.
// Prints requests/s, p50 and p99 for both (median of BENCH_ROUNDS rounds) and the API/bare ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedContacts } from '../src/modules/customers/seed.service';
import { bootstrapOrganisation } from '../src/modules/organisations/bootstrap.service';
import { openDatabase } from '../src/platform/db/open';
import { systemClock } from '../src/platform/kernel/clock';
import { answers, median, printTable, start, stop } from './bench-support';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const scenarios: { name: string; query: string; bearer?: boolean }[] = [
  { name: 'plain page', query: '' },
  // The same page with an OAuth access token instead of the API key (issue 12: within 10% of it).
  { name: 'plain page, bearer token', query: '', bearer: true },
  { name: `deep page (${(CONTACTS / 2 / 25) | 0})`, query: `?page=${Math.floor(CONTACTS / 2 / 25)}` },
  { name: 'search "peeters"', query: '?search=peeters' },
  // The same depth by cursor (issue 14: within 20% of the first page); its cursor is asked for at start.
  {
    name: `deep page by cursor (after ${((CONTACTS / 2) | 0).toLocaleString('en')})`,
    query: '?startingAfter=',
  },
];

/** The cursor of the contact where the deep page starts, from the API itself. */
async function deepCursor(port: number, apiKey: string): Promise<string> {
  const page = Math.floor(CONTACTS / 2 / 25);
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/customers?limit=25&page=${page}`, {
    headers: { 'x-api-key': apiKey },
  });
  const body = (await res.json()) as { nextCursor?: string };
  if (!body.nextCursor) throw new Error(`no cursor: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body.nextCursor;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>, warmUp: boolean): Promise<Figures> {
  if (warmUp) await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

interface Target {
  url: (query: string) => string;
  headers: (scenario: (typeof scenarios)[number]) => Record<string, string>;
}

/** Registers a client-credentials OAuth client through the API and gets an access token for it. */
async function bearerToken(port: number, apiKey: string): Promise<string> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const made = await fetch(`${base}/admin/oauth/clients`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench partner', grants: ['client_credentials'], scopes: ['read'] }),
  });
  const client = (await made.json()) as { clientId: string; clientSecret: string };
  if (made.status !== 201) throw new Error(`oauth client: ${made.status} ${JSON.stringify(client)}`);
  const res = await fetch(`${base}/auth/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=read',
  });
  const token = (await res.json()) as { access_token: string };
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(token)}`);
  return token.access_token;
}

/**
 * Measures every scenario ROUNDS times on both targets and keeps the median of each figure. On the
 * server both processes run side by side and take turns, scenario by scenario, so that both meet the
 * same machine; the embedded database belongs to one process at a time, so there they run one after
 * the other.
 */
async function measure(label: string, env: Record<string, string>, apiKey: string, organisationId: string) {
  const figures = { api: scenarios.map(() => [] as Figures[]), bare: scenarios.map(() => [] as Figures[]) };
  const startApi = () =>
    start('dist/src/server.js', env, (p) =>
      answers(`http://127.0.0.1:${p}/api/v1/customers?limit=1`, { 'x-api-key': apiKey }),
    );
  const startBare = () =>
    start('dist/scripts/bare-reference.js', { ...env, ORG_ID: organisationId }, (p) =>
      answers(`http://127.0.0.1:${p}/customers?limit=1`),
    );
  const tokens = new Map<number, string>();
  const api = (port: number): Target => ({
    url: (q) => `http://127.0.0.1:${port}/api/v1/customers${q}`,
    headers: (s): Record<string, string> =>
      s.bearer ? { authorization: `Bearer ${tokens.get(port) ?? ''}` } : { 'x-api-key': apiKey },
  });
  const bare = (port: number): Target => ({
    url: (q) => `http://127.0.0.1:${port}/customers${q}`,
    headers: () => ({}),
  });
  const run = async (target: Target, into: Figures[][], round: number) => {
    for (const [i, s] of scenarios.entries())
      into[i]!.push(await load(target.url(s.query), target.headers(s), round === 0));
  };
  const withToken = async <T extends { port: number }>(p: T): Promise<T> => {
    tokens.set(p.port, await bearerToken(p.port, apiKey));
    const cursor = scenarios.find((s) => s.query.startsWith('?startingAfter='));
    if (cursor) cursor.query = `?startingAfter=${await deepCursor(p.port, apiKey)}`;
    return p;
  };

  if (env.DATABASE_URL) {
    const a = await withToken(await startApi());
    const b = await startBare();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, s] of scenarios.entries()) {
          figures.api[i]!.push(await load(api(a.port).url(s.query), api(a.port).headers(s), round === 0));
          figures.bare[i]!.push(await load(bare(b.port).url(s.query), {}, round === 0));
        }
      }
    } finally {
      await stop(a.child);
      await stop(b.child);
    }
  } else {
    for (const [which, starter, target] of [
      ['api', async () => withToken(await startApi()), api],
      ['bare', startBare, bare],
    ] as const) {
      const p = await starter();
      try {
        for (let round = 0; round < ROUNDS; round++) await run(target(p.port), figures[which], round);
      } finally {
        await stop(p.child);
      }
    }
  }

  return scenarios.map((s, i) => {
    const a = figures.api[i]!;
    const b = figures.bare[i]!;
    const m = (list: Figures[], key: keyof Figures) => median(list.map((f) => f[key]));
    return [
      label,
      s.name,
      m(a, 'rps').toFixed(0),
      m(a, 'p50').toFixed(1),
      m(a, 'p99').toFixed(1),
      m(b, 'rps').toFixed(0),
      m(b, 'p50').toFixed(1),
      m(b, 'p99').toFixed(1),
      (m(a, 'rps') / m(b, 'rps')).toFixed(2),
      String([...a, ...b].reduce((n, f) => n + f.errors, 0)),
    ];
  });
}

async function seed(target: Parameters<typeof openDatabase>[0]) {
  const database = await openDatabase(target);
  try {
    const org = await bootstrapOrganisation(
      { database, clock: systemClock },
      {
        organisation: `Bench ${new Date().toISOString()}`,
        email: 'bench@example.test',
      },
    );
    const t0 = Date.now();
    let last = 0;
    await seedContacts({ database, clock: systemClock }, org.organisationId, CONTACTS, (done) => {
      if (done - last >= CONTACTS / 10 || done === CONTACTS) {
        process.stderr.write(`  seeded ${done}/${CONTACTS}\n`);
        last = done;
      }
    });
    process.stderr.write(`  seeding took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    return org;
  } finally {
    await database.close();
  }
}

async function main() {
  console.log(
    `bench:customers — ${CONTACTS} contacts, ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} rounds, ${os.cpus().length} cores, node ${process.version}`,
  );
  const rows: string[][] = [];
  const url = process.env.DATABASE_URL;
  if (url) {
    process.stderr.write('PostgreSQL server: seeding\n');
    const org = await seed({ kind: 'server', url, poolSize: 4 });
    // Fresh statistics, as autovacuum would give them a little later: plans must not depend on timing.
    const owner = new pg.Client({ connectionString: url });
    await owner.connect();
    await owner.query('ANALYZE');
    await owner.end();
    rows.push(...(await measure('postgresql server', { DATABASE_URL: url }, org.apiKey, org.organisationId)));
  } else {
    process.stderr.write('DATABASE_URL is not set: skipping the server database (see README, Benchmarks)\n');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-bench-'));
  try {
    process.stderr.write('Embedded PGlite: seeding\n');
    const dataDir = path.join(dir, 'pgdata');
    const org = await seed({ kind: 'embedded', dataDir, purpose: 'bench seed' });
    const env = { DATA_DIR: dir, PGDATA_DIR: dataDir, DATABASE_URL: '' };
    rows.push(...(await measure('embedded pglite', env, org.apiKey, org.organisationId)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    [
      'database',
      'scenario',
      'API req/s',
      'API p50 ms',
      'API p99 ms',
      'bare req/s',
      'bare p50 ms',
      'bare p99 ms',
      'API/bare',
      'errors',
    ],
    rows,
  );
  for (const label of new Set(rows.map((r) => r[0]))) {
    const plain = rows.find((r) => r[0] === label && r[1] === 'plain page');
    const bearer = rows.find((r) => r[0] === label && r[1] === 'plain page, bearer token');
    if (plain && bearer) {
      const ratio = Number(bearer[2]) / Number(plain[2]);
      console.log(
        `${label}: plain page with a bearer token / with the API key = ${ratio.toFixed(2)} (target ≥ 0.90)`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
