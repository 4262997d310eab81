// npm run bench:pages — the pages people wait for, on the built server: the contact's questionnaire
// page, the signing page of a 30-page document with its page images, and the staff actions list; p50 and
// p95 at 1 and 10 connections. And what the first signer waits for a page image: drawn on demand (the
// job worker off) against drawn ahead by the file-pages job (read by a fresh process, as another
// instance would). On the PostgreSQL server at DATABASE_URL (if set), then on the embedded default.
// BENCH_SECONDS (default 5) per load run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answers, percentile, printTable, start, stop } from './bench-support';
import { seedCreateFixture } from './support/create-fixture';
import { samplePdf } from './support/sample-pdf';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const PAGES = 30;
const METRICS_TOKEN = 'bench-pages-metrics-token-0123456789';
const PASSWORD = 'bench pages password 2026';
const EMAIL = 'bench@example.test';

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  errors: number;
}

/** `connections` loops asking `url(i)` until the time is up; every answer must be 200 and pass `check`. */
async function load(
  url: (i: number) => string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  check: (body: Buffer) => boolean,
): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const i = n++;
      const t = performance.now();
      try {
        const res = await fetch(url(i), { headers, redirect: 'manual' });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || !check(body)) errors++;
      } catch {
        errors++;
      }
      times.push(performance.now() - t);
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - began) / 1000;
  times.sort((a, b) => a - b);
  return { rps: times.length / elapsed, p50: percentile(times, 50), p95: percentile(times, 95), errors };
}

/** Each of `urls` asked once, one after the other: what a first visitor waits, per request. */
async function firstViews(urls: string[], check: (body: Buffer) => boolean): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  for (const url of urls) {
    const t = performance.now();
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    times.push(performance.now() - t);
    if (res.status !== 200 || !check(body)) errors++;
  }
  const total = times.reduce((a, b) => a + b, 0);
  times.sort((a, b) => a - b);
  return {
    rps: times.length / (total / 1000),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    errors,
  };
}

const isPng = (b: Buffer) => b.subarray(1, 4).toString() === 'PNG';
const isHtml = (marker: string) => (b: Buffer) => b.toString('utf8').includes(marker);

async function api<T>(base: string, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as T;
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Uploads a PDF of PAGES pages and makes a quicksign action of it (no invitation); answers its code. */
async function signingAction(
  base: string,
  key: string,
  customerId: string,
  name: string,
  pages = PAGES,
): Promise<string> {
  const form = new FormData();
  // Each document its own bytes (its name on every page): nothing drawn for one is another's.
  form.append('file', new Blob([await samplePdf(pages, name)], { type: 'application/pdf' }), `${name}.pdf`);
  const upload = await fetch(`${base}/api/v1/files`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: form,
  });
  const file = (await upload.json()) as { _id: string };
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${JSON.stringify(file)}`);
  const action = await api<{ code: string }>(base, key, 'POST', '/sessionrequests', {
    type: 'quicksign',
    customerId,
    document: { fileId: file._id, title: name },
    language: 'en',
  });
  return action.code;
}

/** Signs the bench's administrator in through the sign-in form; answers the session's cookie header. */
async function staffCookie(base: string, key: string, userId: string): Promise<string> {
  await api(base, key, 'PUT', `/admin/users/${userId}/password`, { password: PASSWORD });
  const form = await fetch(`${base}/signin`);
  const cookies = form.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${base}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.join('; ') },
    body: new URLSearchParams({ _csrf: csrf, email: EMAIL, password: PASSWORD }).toString(),
  });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status}`);
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return [...cookies, ...session].join('; ');
}

/** The file-pages jobs done so far and the seconds they took in all, from the metrics. */
async function pageJobs(base: string): Promise<{ done: number; seconds: number }> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    done: value(/^actiondesk_job_outcomes_total\{kind="file-pages",outcome="done"\} (\S+)$/m),
    seconds: value(/^actiondesk_job_duration_seconds_sum\{kind="file-pages"\} (\S+)$/m),
  };
}

const ms = (v: number) => v.toFixed(1);

/** Waits (at most 5 minutes) until `done` file-pages jobs are done; answers the figures then. */
async function untilJobsDone(base: string, done: number): Promise<{ done: number; seconds: number }> {
  const deadline = performance.now() + 300_000;
  let jobs = await pageJobs(base);
  while (jobs.done < done) {
    if (performance.now() > deadline)
      throw new Error(`${done - jobs.done} file-pages jobs still running after 5 minutes`);
    await new Promise((r) => setTimeout(r, 100));
    jobs = await pageJobs(base);
  }
  return jobs;
}

/**
 * A fresh process's first requests pay for loading code and warming its caches: a small signing action
 * is opened first (its page and an image), so that the first views measured are the document's own.
 */
async function warmUp(base: string, key: string, customerId: string): Promise<void> {
  const code = await signingAction(base, key, customerId, 'Warm-up', 2);
  for (let i = 0; i < 5; i++) {
    await (await fetch(`${base}/action/${code}?lang=en`)).arrayBuffer();
    await (await fetch(`${base}/action/${code}/documents/0/pages/1`)).arrayBuffer();
  }
}

async function measure(label: string, env: Record<string, string>): Promise<string[][]> {
  const fixture = await seedCreateFixture(
    env.DATABASE_URL
      ? { kind: 'server', url: env.DATABASE_URL, poolSize: 4 }
      : { kind: 'embedded', dataDir: path.join(env.DATA_DIR!, 'pgdata'), purpose: 'bench seed' },
  );
  const key = fixture.apiKey;
  const customerId = fixture.customerIds[0]!;
  const serve = (worker: boolean) =>
    start('dist/src/server.js', { ...env, JOB_WORKER: String(worker), METRICS_TOKEN }, (p) =>
      answers(`http://127.0.0.1:${p}/health`),
    );
  const rows: string[][] = [];
  const row = (what: string, connections: string, f: Figures) =>
    rows.push([label, what, connections, f.rps.toFixed(0), ms(f.p50), ms(f.p95), String(f.errors)]);
  const pageUrls = (base: string, code: string) =>
    Array.from({ length: PAGES }, (_, i) => `${base}/action/${code}/documents/0/pages/${i + 1}`);

  // Before: the worker off, each page drawn when first asked for.
  let server = await serve(false);
  let base = `http://127.0.0.1:${server.port}`;
  await warmUp(base, key, customerId);
  const onDemand = await signingAction(base, key, customerId, 'On demand');
  row(
    'first view: signing page (30 pages)',
    '1',
    await firstViews([`${base}/action/${onDemand}?lang=en`], isHtml('30 pages')),
  );
  row('first view: each page image, drawn on demand', '1', await firstViews(pageUrls(base, onDemand), isPng));
  await stop(server.child);

  // After: the worker draws the pages ahead; a fresh process (another instance) reads them.
  server = await serve(true);
  base = `http://127.0.0.1:${server.port}`;
  // The jobs of the actions made while the worker was off (the warm-up's and the on-demand one's) run
  // first: they find their pages drawn.
  const before = await untilJobsDone(base, 2);
  const ahead = await signingAction(base, key, customerId, 'Ahead');
  const jobs = await untilJobsDone(base, before.done + 1);
  const seconds = jobs.seconds - before.seconds;
  process.stderr.write(`  the file-pages job drew ${PAGES} pages in ${seconds.toFixed(1)} s\n`);
  rows.push([label, `file-pages job: ${PAGES} pages drawn ahead (s)`, '1', '', seconds.toFixed(1), '', '0']);
  const qlist = await api<{ code: string }>(base, key, 'POST', '/sessionrequests', {
    type: 'qlist',
    customerId,
    questionListIds: [fixture.templateId],
    language: 'en',
  });
  const cookie = await staffCookie(base, key, fixture.userId);
  await stop(server.child);

  server = await serve(false);
  base = `http://127.0.0.1:${server.port}`;
  await warmUp(base, key, customerId);
  row(
    'first view: signing page (30 pages)',
    '1',
    await firstViews([`${base}/action/${ahead}?lang=en`], isHtml('30 pages')),
  );
  row('first view: each page image, drawn ahead', '1', await firstViews(pageUrls(base, ahead), isPng));
  const scenarios: [string, (i: number) => string, Record<string, string>, (b: Buffer) => boolean][] = [
    ['questionnaire page', () => `${base}/action/${qlist.code}?lang=en`, {}, isHtml('<form')],
    ['signing page (30 pages)', () => `${base}/action/${ahead}?lang=en`, {}, isHtml('30 pages')],
    ['page images (cycling 1–30)', (i) => pageUrls(base, ahead)[i % PAGES]!, {}, isPng],
    ['staff actions list', () => `${base}/staff/actions`, { cookie }, isHtml('<table')],
  ];
  for (const [what, url, headers, check] of scenarios) {
    for (const connections of [1, 10]) {
      await load(url, headers, connections, 1, check); // warm-up
      row(what, String(connections), await load(url, headers, connections, DURATION, check));
    }
  }
  await stop(server.child);
  return rows;
}

async function main(): Promise<void> {
  console.log(
    `bench:pages — ${DURATION} s per run, ${os.cpus().length} cores, node ${process.version}; a ${PAGES}-page document`,
  );
  const rows: string[][] = [];
  const url = process.env.DATABASE_URL;
  if (url) {
    process.stderr.write('PostgreSQL server\n');
    rows.push(...(await measure('postgresql server', { DATABASE_URL: url })));
  } else {
    process.stderr.write('DATABASE_URL is not set: skipping the server database (see README, Benchmarks)\n');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-bench-'));
  try {
    process.stderr.write('Embedded PGlite\n');
    rows.push(...(await measure('embedded pglite', { DATA_DIR: dir, DATABASE_URL: '' })));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printTable(['database', 'page', 'connections', 'req/s', 'p50 ms', 'p95 ms', 'errors'], rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
