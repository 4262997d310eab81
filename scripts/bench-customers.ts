// npm run bench:customers — seeds 100,000 contacts in one organisation, then loads GET /api/v1/customers
// (plain page, deep page, search) on the API and on a bare node:http reference running the same SQL,
// first on the PostgreSQL server named by DATABASE_URL (if set), then on the embedded default.
// Prints requests/s, p50 and p99 for both and the API/bare throughput ratio.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { bootstrapOrganisation } from '../src/modules/admin/bootstrap.service';
import { seedContacts } from '../src/modules/customers/seed.service';
import { systemClock } from '../src/platform/clock';
import { openDatabase } from '../src/platform/db/database';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(__dirname, '../..');

const scenarios = [
  { name: 'plain page', query: '' },
  { name: `deep page (${(CONTACTS / 2 / 25) | 0})`, query: `?page=${Math.floor(CONTACTS / 2 / 25)}` },
  { name: 'search "peeters"', query: '?search=peeters' },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function start(script: string, env: Record<string, string>, ready: (port: number) => Promise<boolean>) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    if (await ready(port)) return { child, port };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${script} did not start`);
}

const answers = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers })
    .then((r) => r.ok)
    .catch(() => false);

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function load(url: string, headers: Record<string, string>): Promise<Figures> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function measure(label: string, env: Record<string, string>, apiKey: string, organisationId: string) {
  const rows: string[][] = [];
  const api = await start('dist/src/server.js', env, (p) =>
    answers(`http://127.0.0.1:${p}/api/v1/customers?limit=1`, { 'x-api-key': apiKey }),
  );
  const apiFigures: Figures[] = [];
  try {
    for (const s of scenarios) {
      apiFigures.push(
        await load(`http://127.0.0.1:${api.port}/api/v1/customers${s.query}`, { 'x-api-key': apiKey }),
      );
    }
  } finally {
    await stop(api.child);
  }
  const bare = await start('dist/scripts/bare-reference.js', { ...env, ORG_ID: organisationId }, (p) =>
    answers(`http://127.0.0.1:${p}/customers?limit=1`),
  );
  try {
    for (const [i, s] of scenarios.entries()) {
      const b = await load(`http://127.0.0.1:${bare.port}/customers${s.query}`, {});
      const a = apiFigures[i]!;
      rows.push([
        label,
        s.name,
        a.rps.toFixed(0),
        a.p50.toFixed(1),
        a.p99.toFixed(1),
        b.rps.toFixed(0),
        b.p50.toFixed(1),
        b.p99.toFixed(1),
        (a.rps / b.rps).toFixed(2),
        String(a.errors + b.errors),
      ]);
    }
  } finally {
    await stop(bare.child);
  }
  return rows;
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

function print(rows: string[][]) {
  const head = [
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
  ];
  const table = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((v, c) => v.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function main() {
  console.log(
    `bench:customers — ${CONTACTS} contacts, ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} cores, node ${process.version}`,
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
  print(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
