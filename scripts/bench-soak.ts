// npm run bench:soak — a long mixed load on the built server with its job worker delivering: 80% reads
// (the contacts page, a sync page, one action, the events page, the contact's questionnaire page) and
// 20% e-mail creates, at BENCH_SOAK_RATE requests/s (default 150) over 10 connections for
// BENCH_SOAK_SECONDS (default 600). Every 10 s it reads the server's own metrics: resident memory, heap
// used, event-loop delay p99 (since the last read), the job queue. It prints each request kind's count,
// errors and latency, memory at the end of the warm-up (the first minute) and at the end, the event-loop
// delay, and whether every invitation was delivered once. On the PostgreSQL server at DATABASE_URL, else
// on the embedded database. Exits 1 on any error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answers, median, percentile, printTable, start, stop } from './bench-support';
import { createBody, EMAIL_INVITATION, seedCreateFixture } from './support/create-fixture';
import { startPeers } from './support/peers';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 150);
const CONNECTIONS = 10;
const WARM_UP_SECONDS = Math.min(60, SECONDS / 5);
const SAMPLE_MS = 10_000;
const METRICS_TOKEN = 'bench-soak-metrics-token-0123456789';

interface Sample {
  at: number;
  rss: number;
  heap: number;
  lagP99: number;
  queued: number;
}

const MB = 1024 * 1024;

async function sample(base: string, startedAt: number): Promise<Sample> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  let queued = 0;
  for (const m of text.matchAll(/^actiondesk_jobs\{[^}]*state="(due|running)"[^}]*\} (\S+)$/gm))
    queued += Number(m[2]);
  return {
    at: (performance.now() - startedAt) / 1000,
    rss: value('actiondesk_process_resident_memory_bytes'),
    heap: value('actiondesk_nodejs_heap_size_used_bytes'),
    lagP99: value('actiondesk_nodejs_eventloop_lag_p99_seconds'),
    queued,
  };
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-soak-'));
  const env: Record<string, string> = url ? { DATABASE_URL: url } : { DATA_DIR: dir, DATABASE_URL: '' };
  const label = url ? 'postgresql server' : 'embedded pglite';
  console.log(
    `bench:soak — ${label}, ${SECONDS} s at ${RATE} req/s over ${CONNECTIONS} connections (80% reads, 20% e-mail creates, the worker delivering), ${os.cpus().length} cores, node ${process.version}`,
  );
  const fixture = await seedCreateFixture(
    url
      ? { kind: 'server', url, poolSize: 4 }
      : { kind: 'embedded', dataDir: path.join(dir, 'pgdata'), purpose: 'bench seed' },
  );
  const peers = await startPeers();
  const server = await start('dist/src/server.js', { ...env, ...peers.env, METRICS_TOKEN }, (p) =>
    answers(`http://127.0.0.1:${p}/health`),
  );
  const base = `http://127.0.0.1:${server.port}`;
  const headers = { 'x-api-key': fixture.apiKey };
  const made: { id: string; code: string }[] = [];
  let created = 0;
  const kinds = ['create', 'contacts page', 'sync page', 'one action', 'events page', 'questionnaire page'];
  const times = new Map(kinds.map((k) => [k, [] as number[]]));
  const errors = new Map(kinds.map((k) => [k, 0]));
  const problems: string[] = [];
  const samples: Sample[] = [];
  const startedAt = performance.now();
  const end = startedAt + SECONDS * 1000;

  let reads = 0;
  /** One request of the mix: a create one time in five, else the next read in turn, of what exists. */
  const one = async (n: number) => {
    const pick = n % 5 === 0 || made.length === 0 ? 'create' : kinds[1 + (reads++ % 5)]!;
    const some = made[(n * 13) % Math.max(1, made.length)];
    const request: [string, RequestInit] =
      pick === 'create'
        ? [
            `${base}/api/v1/sessionrequests`,
            {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: createBody(fixture, n, EMAIL_INVITATION),
            },
          ]
        : pick === 'contacts page'
          ? [`${base}/api/v1/customers?limit=25`, { headers }]
          : pick === 'sync page'
            ? [`${base}/api/v1/customers?updatedSince=2020-01-01T00:00:00.000Z&limit=50`, { headers }]
            : pick === 'one action'
              ? [`${base}/api/v1/sessionrequests/${some?.id}`, { headers }]
              : pick === 'events page'
                ? [`${base}/api/v1/events?limit=50`, { headers }]
                : [`${base}/action/${some?.code}?lang=en`, {}];
    const t = performance.now();
    try {
      const res = await fetch(request[0], { ...request[1], signal: AbortSignal.timeout(10_000) });
      const body = await res.text();
      times.get(pick)!.push(performance.now() - t);
      if (res.status !== (pick === 'create' ? 201 : 200)) {
        errors.set(pick, errors.get(pick)! + 1);
        if (problems.length < 10) problems.push(`${pick}: ${res.status} ${body.slice(0, 200)}`);
      } else if (pick === 'create') {
        const action = JSON.parse(body) as { _id: string; code: string };
        created++;
        if (made.length < 5_000) made.push({ id: action._id, code: action.code });
        else made[created % 5_000] = { id: action._id, code: action.code };
      }
    } catch (err) {
      errors.set(pick, errors.get(pick)! + 1);
      if (problems.length < 10) problems.push(`${pick}: ${(err as Error).message}`);
    }
  };

  // Each connection starts its requests on its own schedule (an open loop): RATE in all.
  let n = 0;
  const interval = (CONNECTIONS * 1000) / RATE;
  const connection = async (c: number) => {
    let next = startedAt + (c * interval) / CONNECTIONS;
    while (next < end) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await one(n++);
      next += interval;
    }
  };
  const sampler = setInterval(() => {
    sample(base, startedAt).then(
      (s) => {
        samples.push(s);
        process.stderr.write(
          `  ${s.at.toFixed(0)} s: rss ${(s.rss / MB).toFixed(0)} MB, heap ${(s.heap / MB).toFixed(0)} MB, event-loop p99 ${(s.lagP99 * 1000).toFixed(1)} ms, jobs queued ${s.queued}\n`,
        );
      },
      () => undefined,
    );
  }, SAMPLE_MS);
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => connection(c)));
  clearInterval(sampler);

  // The worker delivers what is left; then every invitation was sent once.
  const deadline = performance.now() + 120_000;
  while (peers.delivered() < created && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  const delivered = peers.delivered();
  await stop(server.child);
  await peers.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const rows = kinds.map((k) => {
    const sorted = [...times.get(k)!].sort((a, b) => a - b);
    return [
      k,
      String(sorted.length),
      String(errors.get(k)),
      percentile(sorted, 50).toFixed(1),
      percentile(sorted, 99).toFixed(1),
    ];
  });
  printTable(['request', 'count', 'errors', 'p50 ms', 'p99 ms'], rows);
  // Memory goes up and down with each collection: compared as the median and the lowest (after a
  // collection) over the two minutes after the warm-up and over the last two minutes.
  const window = (from: number, to: number) => samples.filter((s) => s.at > from && s.at <= to);
  const early = window(WARM_UP_SECONDS, WARM_UP_SECONDS + 120);
  const late = window(SECONDS - 120, Number.POSITIVE_INFINITY);
  const mb = (v: number) => `${(v / MB).toFixed(0)} MB`;
  const figures = (w: Sample[]) =>
    `rss median ${mb(median(w.map((s) => s.rss)))}, heap used median ${mb(median(w.map((s) => s.heap)))} (lowest ${mb(Math.min(...w.map((s) => s.heap)))}), event-loop delay p99 median ${(median(w.map((s) => s.lagP99)) * 1000).toFixed(1)} ms (highest ${(Math.max(...w.map((s) => s.lagP99)) * 1000).toFixed(1)} ms)`;
  if (early.length > 0 && late.length > 0) {
    console.log(`\nAfter the warm-up (${WARM_UP_SECONDS}–${WARM_UP_SECONDS + 120} s): ${figures(early)}`);
    console.log(`At the end (the last 120 s): ${figures(late)}`);
    console.log(`Jobs queued (due or running) at most ${Math.max(...samples.map((s) => s.queued))}`);
  }
  console.log(
    `Invitations: ${created} actions created, ${delivered} messages delivered (${(delivered / Math.max(1, created)).toFixed(3)} each)`,
  );
  const failed = [...errors.values()].reduce((a, b) => a + b, 0);
  if (problems.length > 0) console.log(`\nErrors:\n${problems.join('\n')}`);
  if (failed > 0 || delivered !== created) process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
