// npm run bench:webhooks — webhook delivery by the service's own job worker (dist/src/server.js) to a
// local HTTP receiver, on the PostgreSQL server named by DATABASE_URL (else the embedded default):
//   1. throughput: 10,000 events queued in one transaction (each fans out to one endpoint, in the
//      statement that records it) while the worker is idle; deliveries per second from the commit to
//      the last delivery;
//   2. idle delay: BENCH_COMPLETIONS actions completed one by one through the contact's pages; the
//      delay from each completion (its event's createdAt) to the delivery's arrival, p50/p95/max.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateCustomer } from '../src/modules/customers/customers.schemas';
import { createCustomer } from '../src/modules/customers/customers.service';
import { bootstrapOrganisation } from '../src/modules/organisations/bootstrap.service';
import { CreateQuestionList } from '../src/modules/questionlists/questionlists.schemas';
import { createQuestionList } from '../src/modules/questionlists/questionlists.service';
import { deliverEventsByWebhook } from '../src/modules/webhooks';
import type { Database } from '../src/platform/db/database';
import { openDatabase } from '../src/platform/db/open';
import { inTenant } from '../src/platform/db/tenant';
import { eventRepository, type NewEvent } from '../src/platform/events/events.repository';
import { systemClock } from '../src/platform/kernel/clock';
import { systemContext } from '../src/platform/kernel/context';
import { newId } from '../src/platform/kernel/ids';
import { answers, cpuSeconds, postgresCpuSeconds, printTable, start, stop } from './bench-support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const COMPLETIONS = Number(process.env.BENCH_COMPLETIONS ?? 40);

/** A local webhook endpoint that answers 200 at once and notes when each event arrived. */
async function startReceiver() {
  const arrivals = new Map<string, { at: number; createdAt: string; type: string }>();
  let requests = 0;
  let last = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      const at = Date.now();
      requests++;
      last = at;
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) {
        const body = JSON.parse(raw) as { createdAt: string; type: string };
        arrivals.set(id, { at, createdAt: body.createdAt, type: body.type });
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    requests: () => requests,
    last: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function seed(database: Database) {
  // This process records events itself (without createServices): they fan out to the webhooks too.
  deliverEventsByWebhook();
  const deps = { database, clock: systemClock };
  const org = await bootstrapOrganisation(deps, {
    organisation: `Bench ${new Date().toISOString()}`,
    email: 'bench@example.test',
  });
  const ctx = systemContext(org.organisationId);
  const template = await createQuestionList(
    deps,
    ctx,
    CreateQuestionList.parse({
      name: 'Bench',
      supportedLanguages: ['nl'],
      sections: [
        {
          id: 's',
          title: { nl: 'Vraag' },
          questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' }, required: true }],
        },
      ],
    }),
  );
  const contact = await createCustomer(
    deps,
    ctx,
    CreateCustomer.parse({ thirdpartyId: 'BENCH-1', data: { Voornaam: 'Bench' } }),
  );
  return { org, ctx, templateId: template._id, contactId: contact._id };
}

async function post(base: string, pathname: string, apiKey: string, body: unknown) {
  const res = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string; code: string };
}

/** Answers and submits an action through the public pages, as the contact does. */
async function completeAsContact(base: string, code: string) {
  const first = await fetch(`${base}/action/${code}`);
  const cookie = (first.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await first.text())?.[1] ?? '';
  const form = (fields: [string, string][]) => new URLSearchParams([['_csrf', csrf], ...fields]).toString();
  const send = (suffix: string, fields: [string, string][]) =>
    fetch(`${base}/action/${code}${suffix}?lang=nl`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: form(fields),
    });
  const step = await send('', [
    ['step', '0'],
    ['nav', 'next'],
    ['q.q', 'Bench'],
  ]);
  if (step.status !== 303) throw new Error(`step: ${step.status}`);
  const submitted = await send('/submit', []);
  if (submitted.status !== 303) throw new Error(`submit: ${submitted.status}`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

async function measure(label: string, env: Record<string, string>) {
  const receiver = await startReceiver();
  // The server database is shared: this process queues the events while the service delivers them.
  const db = await openDatabase({ kind: 'server', url: env.DATABASE_URL!, poolSize: 4 });
  const fixture = await seed(db);
  const api = await start(
    'dist/src/server.js',
    {
      ...env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      JOB_POLL_SECONDS: '1',
      SMTP_URL: '',
    },
    (p) => answers(`http://127.0.0.1:${p}/health`),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const rows: string[][] = [];
  try {
    await post(base, '/api/v1/webhooks', fixture.org.apiKey, { url: receiver.url, events: ['*'] });

    // 1. Throughput: queue EVENTS events in one transaction, with the worker idle.
    const now = new Date();
    const events: NewEvent[] = Array.from({ length: EVENTS }, (_, i) => ({
      type: 'customer.updated',
      subjectId: newId(now.getTime()),
      data: { customer: { _id: `bench-${i}` } },
    }));
    const node0 = cpuSeconds(api.child.pid ?? 0);
    const pg0 = postgresCpuSeconds();
    const q0 = Date.now();
    await inTenant(db, fixture.ctx, async (tx) => {
      for (let i = 0; i < events.length; i += 1000)
        await eventRepository(tx, fixture.ctx).record(events.slice(i, i + 1000), new Date());
    });
    const committed = Date.now();
    const deadline = committed + 300_000;
    while (receiver.arrivals.size < EVENTS && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const lastAt = receiver.last();
    const arrivals = [...receiver.arrivals.values()];
    const firstAt = Math.min(...arrivals.map((a) => a.at));
    const seconds = (lastAt - committed) / 1000;
    rows.push([
      label,
      `${EVENTS} events queued in one transaction (${((committed - q0) / 1000).toFixed(1)} s)`,
      `${receiver.arrivals.size}/${EVENTS}`,
      `${(receiver.arrivals.size / seconds).toFixed(0)}/s (${seconds.toFixed(1)} s from commit; ${(receiver.arrivals.size / ((lastAt - firstAt) / 1000)).toFixed(0)}/s from first to last)`,
      `node ${(((cpuSeconds(api.child.pid ?? 0) - node0) * 1000) / EVENTS).toFixed(2)} ms, pg ${(((postgresCpuSeconds() - pg0) * 1000) / EVENTS).toFixed(2)} ms`,
      String(receiver.requests() - receiver.arrivals.size),
    ]);

    // 2. Idle delay: one completion at a time, each waited for.
    const delays: number[] = [];
    for (let i = 0; i < COMPLETIONS; i++) {
      const action = await post(base, '/api/v1/sessionrequests', fixture.org.apiKey, {
        type: 'qlist',
        customerId: fixture.contactId,
        questionListIds: [fixture.templateId],
      });
      const before = receiver.arrivals.size;
      await completeAsContact(base, action.code);
      const until = Date.now() + 30_000;
      let found: { at: number; createdAt: string } | undefined;
      while (!found && Date.now() < until) {
        found = [...receiver.arrivals.values()]
          .slice(before)
          .find((a) => a.type === 'sessionrequest.completed');
        if (!found) await new Promise((r) => setTimeout(r, 2));
      }
      if (found) delays.push(found.at - new Date(found.createdAt).getTime());
      await new Promise((r) => setTimeout(r, 200)); // idle again
    }
    rows.push([
      label,
      `${COMPLETIONS} completions through the contact's pages, one at a time`,
      `${delays.length}/${COMPLETIONS}`,
      `delay p50 ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms, max ${Math.max(...delays)} ms`,
      '',
      '',
    ]);
  } finally {
    await stop(api.child);
    await receiver.close();
    await db.close();
  }
  return rows;
}

async function main() {
  console.log(
    `bench:webhooks — ${EVENTS} queued events and ${COMPLETIONS} idle completions delivered by the service's worker to a local receiver; ${os.cpus().length} cores, node ${process.version}`,
  );
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('Set DATABASE_URL to a PostgreSQL server (bash scripts/postgres-server.sh prints one).');
    process.exit(2);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-bench-'));
  try {
    const rows = await measure('postgresql server', { DATABASE_URL: url, DATA_DIR: dataDir });
    printTable(['database', 'run', 'delivered', 'result', 'CPU per delivery', 'duplicates'], rows);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
