// bench:sessionrequests' comparison with the bare reference for creates (scripts/bare-create.ts, issue 29):
// the e-mail create on the API with its job worker off and on the bare, alternately twice (API, bare,
// API, bare) at each connection count, the better run of each kept. Before the runs, one create on each
// side is compared: the answers' shapes and the rows each wrote (checkBareWrites), failing loudly on a
// difference. Nobody delivers the jobs of these runs: the API runs with JOB_WORKER=false, the bare has
// no worker, and the server's are cancelled afterwards so that a later bench's worker does not send them.
import autocannon from 'autocannon';
import pg from 'pg';
import { answers, percentile, start, stop } from './bench-support';
import { createBody, EMAIL_INVITATION } from './support/create-fixture';

/** What the comparison needs of the seeded organisation. */
export interface BareFixture {
  organisationId: string;
  userId: string;
  apiKey: string;
  customerIds: string[];
  templateId: string;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One side of the comparison: a process serving creates at `url` while it is open. */
interface Side {
  url: string;
  headers: Record<string, string>;
  /** Runs `fn` with the side's process up: started (and warmed up) for it, or kept up from before. */
  open<T>(fn: () => Promise<T>): Promise<T>;
  /** Stops the side's process if it runs. */
  close(): Promise<void>;
}

/**
 * A side run by `script` with `env`. With `keep` (the server) its process stays up between turns;
 * otherwise (the embedded database, which one process holds at a time) it runs for one turn only.
 */
function sideOf(
  script: string,
  env: Record<string, string>,
  headers: Record<string, string>,
  ready: string,
  keep: boolean,
  warmUp: (side: Side) => Promise<unknown>,
): Side {
  let running: Awaited<ReturnType<typeof start>> | null = null;
  const side: Side = {
    url: '',
    headers,
    async open(fn) {
      if (!running) {
        running = await start(script, env, (p) => answers(`http://127.0.0.1:${p}${ready}`, headers));
        side.url = `http://127.0.0.1:${running.port}/api/v1/sessionrequests`;
        await warmUp(side);
      }
      try {
        return await fn();
      } finally {
        if (!keep) await side.close();
      }
    },
    async close() {
      if (running) await stop(running.child);
      running = null;
    },
  };
  return side;
}

const ALTERNATIONS = 2; // API, bare, API, bare: the definition of one comparison

/** What the bare says about triggers, for the bench's header and its docs. */
export const BARE_TRIGGERS =
  'bare: one statement as the table owner, audit trail off (app.audit_rows: no audit row). The server’s ' +
  'owner role may not set session_replication_role, so touch_change_insert (change_txid), ' +
  'session_requests_credential_key (the code’s credential key) and jobs_notify (NOTIFY) still fire on ' +
  'its inserts, as on the API’s; the embedded bare keeps them too, so that both databases compare alike.';

const body = (fixture: BareFixture, next: number) => createBody(fixture, next, EMAIL_INVITATION);

/**
 * One run of creates on `side`. Latencies are taken from each 2xx response (autocannon's own
 * histogram keeps whole milliseconds, too coarse for a bare create), as fractional milliseconds.
 */
function load(side: Side, fixture: BareFixture, connections: number, seconds: number): Promise<Figures> {
  let next = 0;
  const headers = { ...side.headers, 'content-type': 'application/json' };
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: side.url,
        connections,
        duration: seconds,
        requests: [
          { method: 'POST', headers, setupRequest: (req) => ({ ...req, body: body(fixture, next++) }) },
        ],
      },
      (err, r) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        resolve({
          rps: r.requests.average,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          errors: r.errors + r.non2xx,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** The differences between two JSON values' shapes (keys in order, and which values are null), by path. */
function shapeDifferences(api: unknown, bare: unknown, at = '$'): string[] {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(api) !== kind(bare)) return [`${at}: API ${kind(api)}, bare ${kind(bare)}`];
  if (Array.isArray(api) && Array.isArray(bare)) {
    if (api.length !== bare.length) return [`${at}: API ${api.length} items, bare ${bare.length}`];
    return api.flatMap((v, i) => shapeDifferences(v, bare[i], `${at}[${i}]`));
  }
  if (kind(api) !== 'object') return [];
  const a = api as Record<string, unknown>;
  const b = bare as Record<string, unknown>;
  if (Object.keys(a).join() !== Object.keys(b).join()) {
    const lacks = Object.keys(a).filter((k) => !(k in b));
    const extra = Object.keys(b).filter((k) => !(k in a));
    return [`${at}: the bare lacks [${lacks}], has extra [${extra}] (or another key order)`];
  }
  return Object.keys(a).flatMap((k) => shapeDifferences(a[k], b[k], `${at}.${k}`));
}

/** Columns whose values differ between any two creates (ids, codes, times, order); compared for null-ness only. */
const VARYING = new Set([
  'id',
  'seq',
  'txid',
  'change_txid',
  'code',
  'value',
  'subject_id',
  'session_request_id',
  'created_at',
  'updated_at',
  'sent_at',
  'run_at',
  'at',
]);
/** What the bare does not write, by design: the API request's id (from app.request) and the audit row. */
const EXPECTED = new Set(['jobs.request_id', 'audit_events']);

type Rows = Record<string, Record<string, unknown>[]>;

/** The differences between the rows an API create and a bare create wrote, table by table. */
function rowDifferences(api: Rows, bare: Rows): { problems: string[]; expected: string[] } {
  const problems: string[] = [];
  const expected: string[] = [];
  for (const table of Object.keys(api)) {
    const a = api[table] ?? [];
    const b = bare[table] ?? [];
    if (a.length !== b.length) {
      (EXPECTED.has(table) ? expected : problems).push(`${table}: API ${a.length} rows, bare ${b.length}`);
      continue;
    }
    for (const [i, row] of a.entries()) {
      for (const column of Object.keys(row)) {
        const x = row[column];
        const y = b[i]?.[column];
        const name = `${table}.${column}`;
        const where = `${table}[${i}].${column}`;
        if ((x === null) !== (y === null))
          (EXPECTED.has(name) ? expected : problems).push(`${where}: API ${x}, bare ${y}`);
        else if (column === 'data') problems.push(...shapeDifferences(x, y, where));
        else if (!VARYING.has(column) && JSON.stringify(x) !== JSON.stringify(y))
          problems.push(`${where}: API ${JSON.stringify(x)}, bare ${JSON.stringify(y)}`);
      }
    }
  }
  return { problems, expected };
}

async function createOne(side: Side, fixture: BareFixture): Promise<Record<string, unknown>> {
  const res = await fetch(side.url, {
    method: 'POST',
    headers: { ...side.headers, 'content-type': 'application/json' },
    body: body(fixture, 0),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201) throw new Error(`create on ${side.url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * One create on each side, for the same contact: the answers must have the same shape and the rows
 * the same columns filled (and the same values, ids and times aside). Prints what it found; throws on
 * any difference other than the documented ones (no audit row, no request id on the bare's job).
 */
async function checkBareWrites(label: string, api: Side, bare: Side, fixture: BareFixture) {
  const made = await api.open(() => createOne(api, fixture));
  const { answer, rows } = await bare.open(async () => {
    const answer = await createOne(bare, fixture);
    const origin = new URL(bare.url).origin;
    const rowsOf = async (id: unknown) =>
      (await (await fetch(`${origin}/bench/rows?id=${id}`)).json()) as Rows;
    return { answer, rows: { api: await rowsOf(made._id), bare: await rowsOf(answer._id) } };
  });
  const problems = shapeDifferences(made, answer);
  const found = rowDifferences(rows.api, rows.bare);
  problems.push(...found.problems);
  const counts = Object.keys(rows.api).map((t) => `${t} ${rows.api[t]?.length}/${rows.bare[t]?.length}`);
  console.log(`check (${label}): rows API/bare: ${counts.join(', ')}`);
  console.log(
    `check (${label}): by design, the bare does not write: ${found.expected.join('; ') || 'nothing'}`,
  );
  if (problems.length > 0)
    throw new Error(`the bare reference does not write what the API writes:\n  ${problems.join('\n  ')}`);
  console.log(`check (${label}): same answer shape, same columns filled, same values (ids and times aside)`);
}

/**
 * Compares the API (worker off) with the bare on the e-mail create, at each of `connectionSets`; answers
 * the table's rows. On the server both processes run side by side for the whole comparison; the
 * embedded database belongs to one process at a time, so there each side is started for its turn.
 */
export async function compareWithBare(
  label: string,
  env: Record<string, string>,
  fixture: BareFixture,
  connectionSets: number[],
  seconds: number,
): Promise<string[][]> {
  const startedAt = new Date();
  const keep = Boolean(env.DATABASE_URL);
  // A fresh process is warmed up before it is measured.
  const warmUp = (side: Side) => load(side, fixture, Math.max(...connectionSets), Math.min(2, seconds));
  const api = sideOf(
    'dist/src/server.js',
    { ...env, JOB_WORKER: 'false' },
    { 'x-api-key': fixture.apiKey },
    '/api/v1/questionlists',
    keep,
    warmUp,
  );
  const bare = sideOf(
    'dist/scripts/bare-create.js',
    {
      ...env,
      ORG_ID: fixture.organisationId,
      USER_ID: fixture.userId,
      PGDATA_DIR: env.DATA_DIR ? `${env.DATA_DIR}/pgdata` : '',
    },
    {},
    `/bench/rows?id=${fixture.organisationId}`,
    keep,
    warmUp,
  );
  const figures = new Map(connectionSets.map((c) => [c, { api: [] as Figures[], bare: [] as Figures[] }]));
  try {
    await checkBareWrites(label, api, bare, fixture);
    for (let round = 0; round < ALTERNATIONS; round++) {
      for (const [which, side] of [
        ['api', api],
        ['bare', bare],
      ] as const) {
        await side.open(async () => {
          for (const c of connectionSets) figures.get(c)![which].push(await load(side, fixture, c, seconds));
        });
      }
    }
  } finally {
    await api.close();
    await bare.close();
  }
  if (keep) await cancelQueued(env.DATABASE_URL!, fixture.organisationId, startedAt);
  const best = (list: Figures[]) => list.reduce((a, b) => (b.rps > a.rps ? b : a));
  return connectionSets.map((c) => {
    const f = figures.get(c)!;
    const a = best(f.api);
    const b = best(f.bare);
    return [
      label,
      'e-mail invitation, worker off',
      String(c),
      a.rps.toFixed(0),
      a.p50.toFixed(2),
      a.p99.toFixed(2),
      b.rps.toFixed(0),
      b.p50.toFixed(2),
      b.p99.toFixed(2),
      (a.rps / b.rps).toFixed(2),
      (a.p50 / b.p50).toFixed(2),
      String([...f.api, ...f.bare].reduce((n, x) => n + x.errors, 0)),
    ];
  });
}

/** Cancels the jobs the comparison queued, so that no later bench's worker sends them. */
export async function cancelQueued(url: string, organisationId: string, since: Date): Promise<void> {
  const owner = new pg.Client({ connectionString: url });
  await owner.connect();
  try {
    await owner.query(
      `UPDATE jobs SET status = 'cancelled', finished_at = now(), last_error = 'bench: queued with no worker'
        WHERE organisation_id = $1 AND status = 'pending' AND created_at >= $2`,
      [organisationId, since.toISOString()],
    );
  } finally {
    await owner.end();
  }
}

/** The comparison table's head. */
export const BARE_HEAD = [
  'database',
  'scenario',
  'connections',
  'API req/s',
  'API p50 ms',
  'API p99 ms',
  'bare req/s',
  'bare p50 ms',
  'bare p99 ms',
  'API/bare',
  'p50 API/bare',
  'errors',
];
