// npm run bench:profile — where the API's CPU goes on the e-mail create (issue 29), or on the contacts'
// first page with BENCH_REQUEST=page. Seeds the create benches' organisation, starts the built server
// under `node --cpu-prof` with its job worker off, warms it up, loads POST /api/v1/sessionrequests (or
// GET /api/v1/customers?limit=25) at BENCH_CONNECTIONS (10) for BENCH_SECONDS (10), stops it, and prints
// the profile's top functions by self time and its share by area (our code, each package, Node itself,
// garbage collection), plus the statements and commits PostgreSQL saw per request. The raw profile is
// kept (its path is printed) for a flame graph: open it in Chrome's DevTools, Performance.
// Uses DATABASE_URL when set (the invitations it queued are cancelled afterwards, as no worker sends
// them), else an embedded data directory in a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { cancelQueued } from './bench-bare-create';
import { answers, cpuSeconds, postgresCpuSeconds, printTable, root, start, stop } from './bench-support';
import { createBody, EMAIL_INVITATION, seedCreateFixture } from './support/create-fixture';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TOP = Number(process.env.BENCH_TOP ?? 10);
/** BENCH_CPU_PROF=false: no profile, only the throughput and the CPU each process spent per create. */
const PROFILE = process.env.BENCH_CPU_PROF !== 'false';
/** BENCH_REQUEST=page: the contacts' first page (GET /api/v1/customers?limit=25) instead of the create. */
const PAGE = process.env.BENCH_REQUEST === 'page';
const WHAT = PAGE ? 'page' : 'create';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: our source, a package, Node's own, or the engine's pseudo-frames. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  const ours = /dist\/(src\/[^/]+(?:\/[^/]+)?)/.exec(url);
  return ours ? ours[1]! : url;
}

/** Self time per function and per area, in milliseconds, from a V8 CPU profile. */
function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const file = url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + ms);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    total += ms;
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { total, functions: top(functions, TOP), areas: top(areas, TOP) };
}

async function databaseCounters(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ xact_commit: string; tup_inserted: string }>(
      'SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = current_database()',
    );
    return { commits: Number(r.rows[0]!.xact_commit), inserted: Number(r.rows[0]!.tup_inserted) };
  } finally {
    await client.end();
  }
}

async function main() {
  const url = process.env.DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-profile-'));
  const profiles = path.join(dir, 'profiles');
  const env: Record<string, string> = url ? { DATABASE_URL: url } : { DATA_DIR: dir, DATABASE_URL: '' };
  const fixture = await seedCreateFixture(
    url
      ? { kind: 'server', url, poolSize: 4 }
      : { kind: 'embedded', dataDir: path.join(dir, 'pgdata'), purpose: 'bench seed' },
  );
  const started = new Date();
  const headers = { 'x-api-key': fixture.apiKey, 'content-type': 'application/json' };
  const api = await start(
    'dist/src/server.js',
    { ...env, JOB_WORKER: 'false', SHUTDOWN_DRAIN_SECONDS: '0', LOG_LEVEL: 'info' },
    (p) => answers(`http://127.0.0.1:${p}/api/v1/questionlists`, headers),
    PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [],
  );
  let next = 0;
  const body = () => createBody(fixture, next++, EMAIL_INVITATION);
  const load = (duration: number) =>
    autocannon(
      PAGE
        ? {
            url: `http://127.0.0.1:${api.port}/api/v1/customers?limit=25`,
            connections: CONNECTIONS,
            duration,
            headers,
          }
        : {
            url: `http://127.0.0.1:${api.port}/api/v1/sessionrequests`,
            connections: CONNECTIONS,
            duration,
            requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: body() }) }],
          },
    );
  let created = 0;
  let before = { commits: 0, inserted: 0 };
  let after = before;
  let rps = 0;
  let nodeMs = 0;
  let pgMs = 0;
  try {
    await load(2);
    if (url) before = await databaseCounters(url);
    const node0 = cpuSeconds(api.child.pid ?? 0);
    const pg0 = postgresCpuSeconds();
    const r = await load(DURATION);
    nodeMs = (cpuSeconds(api.child.pid ?? 0) - node0) * 1000;
    pgMs = (postgresCpuSeconds() - pg0) * 1000;
    if (url) after = await databaseCounters(url);
    created = r['2xx'];
    rps = r.requests.average;
    if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx + r.errors} requests failed`);
  } finally {
    await stop(api.child);
    // No worker ran: the invitations queued here must not be sent by a later bench's worker.
    if (url) await cancelQueued(url, fixture.organisationId, started);
  }
  if (!PROFILE) {
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(
      `bench:profile — ${created} ${WHAT}s in ${DURATION} s at ${CONNECTIONS} connections: ${rps.toFixed(0)} req/s, node CPU ${(nodeMs / created).toFixed(2)} ms and PostgreSQL CPU ${(pgMs / created).toFixed(2)} ms per ${WHAT}${url ? `, ${((after.commits - before.commits) / created).toFixed(2)} commits per ${WHAT}` : ''}`,
    );
    return;
  }
  const file = fs.readdirSync(profiles).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile was written in ${profiles}`);
  const kept = path.join(root, `profile-${WHAT}.cpuprofile`);
  fs.copyFileSync(path.join(profiles, file), kept);
  fs.rmSync(dir, { recursive: true, force: true });
  const { total, functions, areas } = summarise(JSON.parse(fs.readFileSync(kept, 'utf8')));
  const perCreate = (ms: number) => (ms / Math.max(1, created)).toFixed(3);
  console.log(
    `bench:profile — ${created} ${WHAT}s in ${DURATION} s at ${CONNECTIONS} connections (${rps.toFixed(0)} req/s, warm-up included in the profile), ${url ? 'PostgreSQL server' : 'embedded PGlite'}; profile: ${path.relative(process.cwd(), kept)}`,
  );
  console.log(`sampled CPU ${(total / 1000).toFixed(1)} s, ${perCreate(total)} ms per measured ${WHAT}\n`);
  if (url)
    console.log(
      `per ${WHAT}: ${((after.commits - before.commits) / created).toFixed(2)} commits, ${((after.inserted - before.inserted) / created).toFixed(2)} rows inserted\n`,
    );
  const share = (ms: number) => `${((ms / total) * 100).toFixed(1)}%`;
  printTable(
    ['function (self time)', 'ms', 'share'],
    functions.map(([k, ms]) => [k, ms.toFixed(0), share(ms)]),
  );
  console.log('');
  printTable(
    ['area', 'ms', 'share', `ms per ${WHAT}`],
    areas.map(([k, ms]) => [k, ms.toFixed(0), share(ms), perCreate(ms)]),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
