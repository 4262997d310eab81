// npm run test:failure — the database goes away under load and comes back.
//
// A PostgreSQL server of this script's own (scratch cluster on 127.0.0.1) serves one ActionDesk
// instance (API and worker). Six clients create actions with e-mail invitations and list contacts for
// BEFORE_MS; then PostgreSQL is killed (pg_ctl stop -m immediate: a crash, connections cut) for
// OUTAGE_MS, started again, and the load goes on for AFTER_MS. Checked, and the script exits 1 if not:
//   - every request started during the outage is answered 503 in the error shape within 2 s; none hangs;
//   - no answer is a 500, none is missing (a hang or a refused connection);
//   - the service recovers by itself: every request started 2 s after the restart succeeds;
//   - every action answered 201 is in the database, and every action in the database has its invitation
//     sent, once (no job lost). An action may be in the database while its client was answered 503: a
//     create whose COMMIT reached the disk as the server was killed, before its acknowledgement came
//     back (the client's outcome is unknown, and a retry with its Idempotency-Key finds it). There can
//     be at most as many of those as creates that were in flight at the kill.
// Prints the requests by status and phase, the slowest outage answer and the recovery time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './bench-support';
import {
  type Answer,
  bootstrap,
  byStatus,
  call,
  createContacts,
  createTemplate,
  runCheck,
  startInstance,
  stopInstance,
} from './support/load';
import { scratchPostgres } from './support/scratch-postgres';

const BEFORE_MS = Number(process.env.FAILURE_BEFORE_MS ?? 4_000);
const OUTAGE_MS = Number(process.env.FAILURE_OUTAGE_MS ?? 8_000);
const AFTER_MS = Number(process.env.FAILURE_AFTER_MS ?? 6_000);
const CLIENTS = 6;
const MAX_REQUESTS_PER_CLIENT = 5_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(problems: string[]): Promise<void> {
  const server = scratchPostgres(await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-failure-'));
  const env = { DATABASE_URL: server.url, DATA_DIR: dataDir, LOG_LEVEL: 'error', JOB_POLL_SECONDS: '1' };
  try {
    const key = bootstrap(env);
    const instance = await startInstance('api', await freePort(), env);
    const base = `http://127.0.0.1:${instance.port}`;
    const template = await createTemplate(base, key);
    const contacts = await createContacts(base, key, 40);

    const answers: Answer[] = [];
    let loading = true;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; loading && i < MAX_REQUESTS_PER_CLIENT; i++) {
        const answer =
          i % 2 === 0
            ? await call(base, key, 'create', 'POST', '/api/v1/sessionrequests', {
                type: 'qlist',
                customerId: contacts[(c * 7 + i) % contacts.length],
                questionListIds: [template],
                notificationEmail: { send: true },
              })
            : await call(base, key, 'list', 'GET', '/api/v1/customers?limit=10');
        answers.push(answer);
        // A client backs off a little after a failure (docs/api.md), as a CRM would.
        if (answer.status >= 500 || answer.status === 0) await sleep(100);
      }
    });

    await sleep(BEFORE_MS);
    const stopping = Date.now();
    await server.stop('immediate');
    const stoppedAt = Date.now();
    await sleep(OUTAGE_MS);
    const restarting = Date.now();
    await server.start();
    const restartedAt = Date.now();
    await sleep(AFTER_MS);
    loading = false;
    await Promise.all(clients);

    const ok = (a: Answer) => a.status === 200 || a.status === 201;
    const during = answers.filter((a) => a.startedAt >= stoppedAt && a.startedAt < restarting);
    const after = answers.filter((a) => a.startedAt >= restartedAt + 2_000);
    const firstSuccess = answers
      .filter((a) => a.startedAt >= restartedAt && ok(a))
      .sort((a, b) => a.startedAt + a.ms - (b.startedAt + b.ms))[0];
    const recoveryMs = firstSuccess ? firstSuccess.startedAt + firstSuccess.ms - restartedAt : null;

    for (const a of during) {
      if (a.status !== 503) problems.push(`during the outage: ${a.kind} answered ${a.status}`);
      else if (a.body?.success !== false || a.body?.status !== 503 || typeof a.body?.error !== 'string')
        problems.push(`during the outage: a 503 not in the error shape: ${JSON.stringify(a.body)}`);
      if (a.ms > 2_000) problems.push(`during the outage: ${a.kind} took ${a.ms} ms`);
    }
    for (const a of answers) {
      if (a.status === 0)
        problems.push(
          `${a.kind} got no answer within 10 s (started ${a.startedAt - stopping} ms after the stop)`,
        );
      if (a.status === 500) problems.push(`${a.kind} answered 500: ${JSON.stringify(a.body)}`);
    }
    for (const a of after) if (!ok(a)) problems.push(`after the restart: ${a.kind} answered ${a.status}`);
    if (during.length === 0) problems.push('no request was made during the outage');
    if (after.length === 0) problems.push('no request was made after the restart');
    if (recoveryMs === null || recoveryMs > 2_000) problems.push(`recovery took ${recoveryMs} ms`);

    // Every action answered 201 is kept, and its invitation goes out (the worker picks up what it had
    // in hand when the database went away once it is back).
    const created = answers
      .filter((a) => a.kind === 'create' && a.status === 201)
      .map((a) => a.body?._id as string);
    /** A query as the cluster's owner (every organisation's rows), on a connection of its own. */
    const asOwner = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
      const owner = new pg.Client({ connectionString: server.url });
      await owner.connect();
      try {
        return (await owner.query<R>(text, params)).rows;
      } finally {
        await owner.end();
      }
    };
    const stored = new Set(
      (await asOwner<{ id: string }>('SELECT id FROM session_requests')).map((r) => r.id),
    );
    const lost = created.filter((id) => !stored.has(id));
    if (lost.length > 0) problems.push(`${lost.length} actions answered 201 are not in the database`);
    const answered = new Set(created);
    const unacknowledged = [...stored].filter((id) => !answered.has(id));
    const inFlightAtKill = answers.filter(
      (a) =>
        a.kind === 'create' && a.status !== 201 && a.startedAt < stoppedAt && a.startedAt + a.ms >= stopping,
    ).length;
    if (unacknowledged.length > inFlightAtKill)
      problems.push(
        `${unacknowledged.length} actions are in the database without a 201, more than the ${inFlightAtKill} creates in flight at the kill`,
      );
    const waitUntil = Date.now() + 150_000;
    let unsent = [...stored];
    // Invitations sent again on purpose after an attempt whose outcome was lost (notification.sends > 1).
    const resent = new Set<string>();
    while (unsent.length > 0 && Date.now() < waitUntil) {
      const still: string[] = [];
      for (const id of unsent) {
        const detail = await call(base, key, 'check', 'GET', `/api/v1/sessionrequests/${id}`);
        if (detail.status === 404) problems.push(`action ${id} was answered 201 but is not in the database`);
        else {
          const notes = (detail.body?.notifications ?? []) as {
            purpose: string;
            status: string;
            sends: number;
          }[];
          const invitation = notes.find((n) => n.purpose === 'invitation' && n.status === 'sent');
          if (!invitation) still.push(id);
          else if (invitation.sends > 1) resent.add(id);
        }
      }
      unsent = still;
      if (unsent.length > 0) await sleep(1_000);
    }
    if (unsent.length > 0) {
      problems.push(`${unsent.length} invitations were never sent: ${unsent.slice(0, 5).join(', ')}`);
      // What became of them, for whoever reads the failure.
      const rows = await asOwner(
        'SELECT subject_id, kind, status, attempts, run_at, locked_until, last_error, finished_at FROM jobs WHERE subject_id = ANY($1::uuid[])',
        [unsent.slice(0, 5)],
      );
      console.error(`jobs of the unsent actions: ${JSON.stringify(rows, null, 1)}`);
    }
    const outbox = path.join(dataDir, 'outbox');
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    const mails = files.length;
    // Each message carries the Message-ID of its job: a copy sent again shares it, and a relay that
    // de-duplicates delivers it once. Messages = distinct Message-IDs; it must equal the invitations.
    const ids = files.map(
      (f) => /^Message-ID:\s*(\S+)/im.exec(fs.readFileSync(path.join(outbox, f), 'utf8'))?.[1] ?? null,
    );
    if (ids.some((id) => id === null)) problems.push('a message was written without a Message-ID');
    const messages = new Set(ids).size;
    const invited = stored.size - unsent.length;
    if (messages !== invited)
      problems.push(`${messages} distinct messages for ${invited} invitations sent (${mails} files)`);

    const report = {
      requests: answers.length,
      byStatus: byStatus(answers),
      duringOutage: {
        requests: during.length,
        byStatus: byStatus(during),
        slowestMs: Math.max(0, ...during.map((a) => a.ms)),
      },
      afterRestart: { requests: after.length, byStatus: byStatus(after) },
      outageMs: restarting - stoppedAt,
      recoveryMs,
      actionsCreated: created.length,
      committedWithoutAcknowledgement: unacknowledged.length,
      invitationsSent: invited,
      messages,
      invitationMails: mails,
      resentAfterUnknownOutcome: resent.size,
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `test:failure — ${answers.length} requests; outage ${report.outageMs} ms: ${during.length} requests, all 503 in at most ${report.duringOutage.slowestMs} ms; recovered ${recoveryMs} ms after the restart; ${created.length} actions created (and ${unacknowledged.length} committed as the server was killed, their clients answered 503), ${invited} invited: ${messages} messages (distinct Message-IDs), ${mails} mails written, ${resent.size} sent again on purpose after an unknown outcome`,
    );
    const code = await stopInstance(instance);
    if (code !== 0) problems.push(`the instance exited with ${code} on SIGTERM`);
  } finally {
    server.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runCheck(main);
