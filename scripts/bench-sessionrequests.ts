// npm run bench:sessionrequests — loads POST /api/v1/sessionrequests with e-mail invitations (and with
// e-mail + SMS invitations and two reminders) while the service's own job worker delivers the messages
// to a local SMTP server and a local HTTP SMS receiver. Runs on the PostgreSQL server named by
// DATABASE_URL (if set), then on the embedded default. Prints requests/s, p50 and p99 (median of
// BENCH_ROUNDS rounds), then how long the worker took to deliver everything that was queued.
// Then (unless BENCH_BARE=false) compares the e-mail create, job worker off, with the bare reference
// for creates (scripts/bare-create.ts, run by bench-bare-create.ts): API and bare alternately twice at
// each connection count, the better run of each, side by side with the ratio; before that, one create
// on each side is checked to write the same rows and answer the same shape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BARE_HEAD, BARE_TRIGGERS, compareWithBare } from './bench-bare-create';
import { answers, cpuSeconds, median, postgresCpuSeconds, printTable, start, stop } from './bench-support';
import { createBody, EMAIL_INVITATION, seedCreateFixture } from './support/create-fixture';
import { startPeers } from './support/peers';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTION_SETS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
const WORKER = process.env.JOB_WORKER !== 'false';
const BARE = process.env.BENCH_BARE !== 'false';

const scenarios = [
  { name: 'e-mail invitation', extra: EMAIL_INVITATION, messages: 1 },
  {
    name: 'e-mail + SMS, 2 reminders',
    extra: {
      notificationEmail: { send: true },
      notificationSms: { send: true },
      reminderSchedule: { reminder1Days: 3, reminder2Days: 7 },
    },
    messages: 2, // the reminders fall due days later
  },
];

/** How many actions the bench's organisation has (GET /api/v1/sessionrequests answers the total). */
async function actionsTotal(port: number, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/sessionrequests?limit=1`, { headers });
  if (!res.ok) throw new Error(`counting the actions: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { total: number }).total;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  nodeMs: number;
  pgMs: number;
}

async function measure(
  label: string,
  env: Record<string, string>,
  peers: Awaited<ReturnType<typeof startPeers>>,
) {
  const fixture = await seedCreateFixture(
    env.DATABASE_URL
      ? { kind: 'server', url: env.DATABASE_URL, poolSize: 4 }
      : { kind: 'embedded', dataDir: path.join(env.DATA_DIR!, 'pgdata'), purpose: 'bench seed' },
  );
  const headers = { 'x-api-key': fixture.apiKey, 'content-type': 'application/json' };
  const api = await start('dist/src/server.js', { ...env, ...peers.env, JOB_POLL_SECONDS: '1' }, (p) =>
    answers(`http://127.0.0.1:${p}/api/v1/questionlists`, headers),
  );
  const rows: string[][] = [];
  try {
    for (const scenario of scenarios) {
      for (const connections of CONNECTION_SETS) {
        let next = 0;
        const body = () => createBody(fixture, next++, scenario.extra);
        const deliveredBefore = peers.delivered();
        const actionsBefore = await actionsTotal(api.port, headers);
        const runs: Run[] = [];
        for (let round = 0; round <= ROUNDS; round++) {
          const node0 = cpuSeconds(api.child.pid ?? 0);
          const pg0 = postgresCpuSeconds();
          const r = await autocannon({
            url: `http://127.0.0.1:${api.port}/api/v1/sessionrequests`,
            connections,
            duration: round === 0 ? 2 : DURATION, // round 0 warms up and is not counted
            requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: body() }) }],
          });
          const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, r['2xx']);
          if (round > 0)
            runs.push({
              rps: r.requests.average,
              p50: r.latency.p50,
              p99: r.latency.p99,
              errors: r.errors + r.non2xx,
              nodeMs: perRequest(cpuSeconds(api.child.pid ?? 0) - node0),
              pgMs: perRequest(postgresCpuSeconds() - pg0),
            });
        }
        // The worker delivers in the background; wait (bounded) until everything queued has arrived.
        // With JOB_WORKER=false (the request path alone) nothing is delivered and nothing is awaited.
        // Actions are counted by the server, not by autocannon, and again while waiting: a request in
        // flight when a run ends is neither counted by autocannon nor, for a moment, committed, but its
        // action is created and its messages are sent.
        const createdNow = async () => (await actionsTotal(api.port, headers)) - actionsBefore;
        let created = await createdNow();
        const t0 = Date.now();
        while (
          WORKER &&
          peers.delivered() - deliveredBefore < created * scenario.messages &&
          Date.now() - t0 < 300_000
        ) {
          await new Promise((r) => setTimeout(r, 100));
          created = await createdNow();
        }
        const expected = created * scenario.messages;
        const m = (k: keyof Run) => median(runs.map((x) => x[k]));
        rows.push([
          label,
          scenario.name,
          String(connections),
          m('rps').toFixed(0),
          m('p50').toFixed(1),
          m('p99').toFixed(1),
          m('nodeMs').toFixed(2),
          env.DATABASE_URL ? m('pgMs').toFixed(2) : '(in node)',
          `${peers.delivered() - deliveredBefore}/${expected}`,
          WORKER ? ((Date.now() - t0) / 1000).toFixed(1) : 'no worker',
          String(runs.reduce((n, x) => n + x.errors, 0)),
        ]);
      }
    }
  } finally {
    await stop(api.child);
  }
  // After the worker's runs: the comparison's jobs must not be delivered by anybody.
  const bare = BARE ? await compareWithBare(label, env, fixture, CONNECTION_SETS, DURATION) : [];
  return { rows, bare };
}

async function main() {
  console.log(
    `bench:sessionrequests — POST /api/v1/sessionrequests, ${CONNECTION_SETS.join(' and ')} connections, ${DURATION} s per run, median of ${ROUNDS} rounds, ${os.cpus().length} cores, node ${process.version}`,
  );
  const peers = await startPeers();
  const rows: string[][] = [];
  const bare: string[][] = [];
  const keep = (measured: Awaited<ReturnType<typeof measure>>) => {
    rows.push(...measured.rows);
    bare.push(...measured.bare);
  };
  try {
    const url = process.env.DATABASE_URL;
    if (url) {
      process.stderr.write('PostgreSQL server\n');
      keep(await measure('postgresql server', { DATABASE_URL: url }, peers));
    } else {
      process.stderr.write(
        'DATABASE_URL is not set: skipping the server database (see README, Benchmarks)\n',
      );
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-bench-'));
    try {
      process.stderr.write('Embedded PGlite\n');
      keep(await measure('embedded pglite', { DATA_DIR: dir, DATABASE_URL: '' }, peers));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await peers.close();
  }
  printTable(
    [
      'database',
      'scenario',
      'connections',
      'req/s',
      'p50 ms',
      'p99 ms',
      'node CPU ms/req',
      'PG CPU ms/req',
      'messages delivered/queued',
      'drain s',
      'errors',
    ],
    rows,
  );
  if (bare.length > 0) {
    console.log(
      `\nThe e-mail create against the bare reference (job worker off; API, bare, API, bare, the better run of each, ${DURATION} s per run)\n${BARE_TRIGGERS}\n`,
    );
    printTable(BARE_HEAD, bare);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
