// npm run test:scale — two API instances and a worker behind HAProxy, with a rolling restart under load.
//
// One PostgreSQL server of this script's own (scratch cluster on 127.0.0.1) behind PgBouncer in
// transaction pooling mode (8 server connections for 30 pooled client connections); two API-only instances
// (JOB_WORKER=false) behind Debian's HAProxy with the repository's deploy/haproxy.cfg; one worker-only
// instance; a real SMTP server (smtp-server). Ten clients create ACTIONS actions through HAProxy, each
// for its own contact with an e-mail invitation. When a tenth are made, the first API instance is
// stopped with SIGTERM and started again; as soon as it is back, the second. The last tenth of the
// creates waits for both restarts (and for HAProxy to see the second instance up), so that both serve
// creates after their restart however fast the machine makes the rest. Checked, and the script exits 1
// if not:
//   - every request through HAProxy is answered 201 (no failed request during the rolling restart);
//   - requests were spread over both instances;
//   - each contact receives exactly one invitation (each job ran once), sent by the worker.

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, root } from './bench-support';
import {
  type Answer,
  bootstrap,
  byStatus,
  call,
  createContacts,
  createTemplate,
  type Instance,
  runCheck,
  startInstance,
  stopInstance,
} from './support/load';
import { countingMailbox } from './support/peers';
import { startPgBouncer } from './support/pgbouncer';
import { scratchPostgres } from './support/scratch-postgres';

const ACTIONS = Number(process.env.SCALE_ACTIONS ?? 2_000);
const CLIENTS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The sum of a counter's samples whose labels include `labels`, from an instance's /metrics. */
async function counter(port: number, name: string, labels: Record<string, string>): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

async function main(problems: string[]): Promise<void> {
  const server = scratchPostgres(await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-scale-'));
  const smtp = await countingMailbox();
  let haproxy: ChildProcess | undefined;
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
  const instances: Instance[] = [];
  try {
    const env = {
      DATABASE_URL: server.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      SMTP_URL: smtp.url,
      ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 9).toString('base64')}`,
      TRUST_PROXY: 'loopback',
      // HAProxy checks every 1 s and takes an instance out after 2 failures (deploy/haproxy.cfg): a
      // SIGTERM'd instance answers /health 503 `draining` this long while still serving.
      SHUTDOWN_DRAIN_SECONDS: '3',
    };
    const key = bootstrap(env);
    // The instances' queries go through PgBouncer in transaction pooling mode, logged in as the app
    // role; migrations and LISTEN go to the server directly (docs/operations.md#pgbouncer-transaction-pooling).
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('ALTER ROLE actiondesk_app LOGIN');
    await admin.end();
    bouncer = await startPgBouncer({
      port: await freePort(),
      serverPort: server.port,
      database: 'actiondesk',
      poolSize: 8,
    });
    const instanceEnv = {
      ...env,
      DATABASE_URL: bouncer.url,
      DATABASE_MIGRATION_URL: server.url,
      DATABASE_LISTEN_URL: server.url,
    };
    const ports = {
      api1: await freePort(),
      api2: await freePort(),
      worker: await freePort(),
      lb: await freePort(),
    };
    const metricsPorts = { api1: await freePort(), api2: await freePort(), worker: await freePort() };
    const api = (name: 'api1' | 'api2') =>
      startInstance(name, ports[name], {
        ...instanceEnv,
        JOB_WORKER: 'false',
        METRICS_PORT: String(metricsPorts[name]),
      });
    let api1 = await api('api1');
    let api2 = await api('api2');
    const worker = await startInstance('worker', ports.worker, {
      ...instanceEnv,
      JOB_WORKER: 'true',
      METRICS_PORT: String(metricsPorts.worker),
    });
    instances.push(api1, api2, worker);

    haproxy = spawn('haproxy', ['-f', path.join(root, 'deploy/haproxy.cfg'), '-db'], {
      env: {
        ...process.env,
        LISTEN_ADDR: `127.0.0.1:${ports.lb}`,
        API1_ADDR: `127.0.0.1:${ports.api1}`,
        API2_ADDR: `127.0.0.1:${ports.api2}`,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const lb = `http://127.0.0.1:${ports.lb}`;
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${lb}/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (up) break;
      if (i === 99) throw new Error('HAProxy did not answer');
      await sleep(100);
    }

    const template = await createTemplate(lb, key);
    const contacts = await createContacts(lb, key, ACTIONS, CLIENTS);

    // The load: ACTIONS creates through HAProxy; the rolling restart runs beside it.
    const answers: Answer[] = [];
    let next = 0;
    const restarts: { name: string; exitCode: number | null; downMs: number }[] = [];
    const heldBack = Math.floor(ACTIONS * 0.9);
    let restarted = false;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (next < ACTIONS) {
        if (next >= heldBack && !restarted) {
          await sleep(20);
          continue;
        }
        const n = next++;
        answers.push(
          await call(lb, key, 'create', 'POST', '/api/v1/sessionrequests', {
            type: 'qlist',
            customerId: contacts[n],
            questionListIds: [template],
            notificationEmail: { send: true },
          }),
        );
      }
    });
    const restart = async (at: number, name: 'api1' | 'api2') => {
      while (answers.length < at && next < ACTIONS) await sleep(5);
      const old = name === 'api1' ? api1 : api2;
      const began = Date.now();
      const exitCode = await stopInstance(old);
      const fresh = await api(name);
      if (name === 'api1') api1 = fresh;
      else api2 = fresh;
      instances.push(fresh);
      restarts.push({ name, exitCode, downMs: Date.now() - began });
    };
    const started = Date.now();
    await Promise.all([
      ...clients,
      (async () => {
        await restart(Math.floor(ACTIONS * 0.1), 'api1');
        // As soon as api1 is back: each restart takes the drain and a start (about 6 s), and both
        // instances must serve creates after theirs while the load still runs.
        // HAProxy checks every second (rise 1): let it see api1 up before api2 goes down.
        await sleep(1_500);
        await restart(0, 'api2');
        // The same for api2, before the held-back creates go.
        await sleep(1_500);
        restarted = true;
      })(),
    ]);
    const loadMs = Date.now() - started;

    const failed = answers.filter((a) => a.status !== 201);
    for (const a of failed.slice(0, 10))
      problems.push(`a create answered ${a.status}: ${JSON.stringify(a.body)}`);
    if (failed.length > 10) problems.push(`… ${failed.length} creates did not answer 201 in all`);
    for (const r of restarts)
      if (r.exitCode !== 0) problems.push(`${r.name} exited with ${r.exitCode} on SIGTERM`);
    if (restarts.length !== 2) problems.push(`${restarts.length} restarts happened, not 2`);

    // Each instance served some of the creates since its restart.
    const served = {
      api1: await counter(metricsPorts.api1, 'actiondesk_http_requests_total', {
        route: '/api/v1/sessionrequests',
        status: '201',
      }),
      api2: await counter(metricsPorts.api2, 'actiondesk_http_requests_total', {
        route: '/api/v1/sessionrequests',
        status: '201',
      }),
    };
    if (served.api1 === 0 || served.api2 === 0)
      problems.push(`requests were not spread: ${JSON.stringify(served)}`);

    // Every invitation sent once: wait for all, then for the queue to be empty, then count.
    const deadline = Date.now() + 180_000;
    while (smtp.total() < ACTIONS && Date.now() < deadline) await sleep(200);
    for (;;) {
      const busy =
        (await counter(metricsPorts.worker, 'actiondesk_jobs', { kind: 'notification', state: 'due' })) +
        (await counter(metricsPorts.worker, 'actiondesk_jobs', { kind: 'notification', state: 'running' }));
      if (busy === 0 || Date.now() > deadline) break;
      await sleep(200);
    }
    const counts = [...smtp.perRecipient.values()];
    const once = counts.filter((c) => c === 1).length;
    const twice = counts.filter((c) => c > 1).length;
    const missing = contacts.filter((_, n) => !smtp.perRecipient.has(`contact${n}@load.test`)).length;
    if (once !== ACTIONS || twice > 0 || missing > 0)
      problems.push(`invitations: ${once} contacts got exactly one, ${twice} more than one, ${missing} none`);
    const sentByWorker = await counter(metricsPorts.worker, 'actiondesk_job_outcomes_total', {
      kind: 'notification',
      outcome: 'done',
    });
    if (sentByWorker !== ACTIONS)
      problems.push(`the worker recorded ${sentByWorker} invitations done, not ${ACTIONS}`);

    const report = {
      actions: ACTIONS,
      requests: answers.length,
      byStatus: byStatus(answers),
      loadMs,
      throughputPerSecond: Math.round((answers.length / loadMs) * 1000),
      restarts,
      createsServedSinceRestart: served,
      invitations: {
        total: smtp.total(),
        contactsExactlyOnce: once,
        contactsMoreThanOnce: twice,
        contactsNone: missing,
      },
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `test:scale — ${answers.length} creates through HAProxy in ${loadMs} ms (${report.throughputPerSecond}/s), ${JSON.stringify(report.byStatus)}; both API instances restarted with SIGTERM mid-load (down ${restarts.map((r) => `${r.downMs} ms`).join(', ')}); ${once} contacts invited exactly once`,
    );
  } finally {
    haproxy?.kill('SIGTERM');
    for (const i of instances) if (i.child.exitCode === null) i.child.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.exit));
    await smtp.close();
    await bouncer?.stop();
    server.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runCheck(main);
