import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isId } from '../ids';
import { projectRoot } from '../paths';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './errors';
import { lockDataDir } from './lock';

/** What repositories run their queries on: the database, or an open transaction. */
export type AppDb = PgDatabase<PgQueryResultHKT>;
export type Tx = AppDb;
export type Queryable = AppDb;

/** The role the application works as; see migration 0000. */
export const APP_ROLE = 'actiondesk_app';

/**
 * The statement that opens every tenant transaction (see tenant.ts). Drivers send it the cheapest way
 * they can: the server driver sends it in the same round trip as BEGIN.
 */
export interface TenantEntry {
  organisationId: string;
  userId: string | null;
  apiKeyId: string | null;
  /** An OAuth access token's id: the entry also confirms the token is live and records its use. */
  tokenId?: string | null;
  authVersion: number;
  at: Date;
  /** Who acts, for the audit trail the database writes (app.request; see migration 0027). */
  stamp?: RequestStamp;
}

/** What the audit trail's rows say about the change's origin. */
export interface RequestStamp {
  actor: 'user' | 'api_key' | 'oauth_client' | 'contact' | 'system';
  user: string | null;
  credential: string | null;
  label: string | null;
  id: string | null;
  address: string | null;
  at: string;
}
export type EntryResult = 'ok' | 'stale';

export interface Database {
  readonly engine: 'postgresql';
  readonly driver: 'pglite' | 'node-postgres';
  /** Outside any transaction: sees no tenant rows (row-level security), for lookups and health only. */
  readonly db: AppDb;
  /** Runs `fn` in a transaction opened with `actiondesk_enter(entry)`; commits, or rolls back on a throw. */
  tenantTransaction<T>(entry: TenantEntry, fn: (tx: Tx, entered: EntryResult) => Promise<T>): Promise<T>;
  /**
   * Runs statements in one tenant transaction and returns their rows (raw column names).
   * On the server driver the whole batch (BEGIN, entry, statements, COMMIT) is a single round trip.
   */
  tenantBatch(entry: TenantEntry, statements: SQL[]): Promise<{ entered: EntryResult; rows: Row[][] }>;
  /**
   * One parameterised statement outside any tenant transaction, in the pg pool's shape (`{ rows }`):
   * for libraries that take a pool (the staff session store). Sees no tenant rows.
   */
  query(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` on every NOTIFY on `channel` from any process on this database (PostgreSQL
   * LISTEN; in-process on the embedded database). A lost connection is re-established by itself, and
   * `onNotify` is then called once for whatever was missed meanwhile.
   */
  subscribe(channel: string, onNotify: () => void): Subscription;
  /** The connection pool now: connections open and idle, callers waiting, and the most allowed. */
  poolStats(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Runs `fn` in a transaction as the database's owner, past row-level security and able to alter the
   * tables, on a connection of its own (the migration login on a server) without the pool's time limit:
   * for operator commands (cli export, import and org delete), never for requests.
   */
  ownerTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type Row = Record<string, unknown>;

export interface Subscription {
  close(): Promise<void>;
}

export type DatabaseTarget =
  /**
   * On disk in `dataDir`; `image` (see `migratedImage`), given for a new, empty directory, is loaded
   * into it instead of creating the database.
   */
  | { kind: 'embedded'; dataDir: string; purpose: string; image?: Blob }
  /**
   * In memory, gone when closed. `image` is a data directory dumped from an embedded database
   * (`migratedImage`): loading one skips initdb and the migrations it already has (the test suite's
   * template, migrated once per run).
   */
  | { kind: 'memory'; image?: Blob }
  | {
      kind: 'server';
      url: string;
      poolSize: number;
      limits?: Partial<ServerLimits>;
      /** Where LISTEN connects (a direct connection when `url` is a transaction-pooling proxy). */
      listenUrl?: string;
      /**
       * Where migrations run, as the database's owner, when `url` logs in as actiondesk_app itself
       * (through a transaction-pooling proxy such as pgbouncer, which takes no startup options).
       */
      migrationUrl?: string;
    };

/**
 * Bounds on waiting for the server database, so that a hung or lost server makes requests fail fast
 * (503) instead of piling up: time to get a connection (connecting, or waiting for a free one), time for
 * one statement (ended by the server, and given up by the client a little later if the server hangs),
 * and how many callers may wait for a connection at once.
 */
export interface ServerLimits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  maxWaiting: number;
}
export const defaultServerLimits: ServerLimits = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  maxWaiting: 200,
};

const migrationsFolder = path.join(projectRoot, 'src/db/migrations');
/** The PostgreSQL extensions every embedded database loads (the migrations create them). */
const extensions = { pg_trgm, btree_gin };

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The entry as a parameterised statement. */
function enterStatement(e: TenantEntry): SQL {
  const stamp = sql`set_config('app.request', ${e.stamp ? JSON.stringify(e.stamp) : ''}, true) AS r`;
  if (e.tokenId) {
    return sql`SELECT actiondesk_enter(${e.organisationId}::uuid, ${e.userId}::uuid, NULL::uuid, ${e.authVersion}::integer, ${e.at.toISOString()}::timestamptz, ${e.tokenId}::uuid) AS s, ${stamp}`;
  }
  return sql`SELECT actiondesk_enter(${e.organisationId}::uuid, ${e.userId}::uuid, ${e.apiKeyId}::uuid, ${e.authVersion}::integer, ${e.at.toISOString()}::timestamptz) AS s, ${stamp}`;
}

export async function enter(tx: Tx, e: TenantEntry): Promise<EntryResult> {
  const [row] = await queryRows<{ s: EntryResult }>(tx, enterStatement(e));
  return row?.s ?? 'stale';
}

const dialect = new PgDialect();

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('batch: non-finite number');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === 'string') return pg.escapeLiteral(value);
  return pg.escapeLiteral(JSON.stringify(value));
}

/**
 * Renders a statement with its parameters as escaped literals (pg's escapeLiteral), for the simple
 * query protocol, which takes several statements in one message but no parameters.
 */
export function inlineStatement(statement: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/** The entry for the simple query protocol: the same statement, its values inlined as literals. */
const enterInline = (e: TenantEntry): string => inlineStatement(enterStatement(e));

/** A read batch as one simple-protocol message; its results are [BEGIN, entry, …statements, COMMIT]. */
const batchText = (entry: TenantEntry, statements: SQL[]): string =>
  ['BEGIN', enterInline(entry), ...statements.map(inlineStatement), 'COMMIT'].join(';\n');

const enteredOf = (results: { rows: unknown[] }[]): EntryResult =>
  ((results[1]?.rows[0] as Row | undefined)?.s as EntryResult | undefined) ?? 'stale';

/**
 * A timestamptz read through either driver as ISO 8601 (milliseconds, Z). Sessions run in UTC, so the
 * text form is `YYYY-MM-DD HH:MM:SS[.ffffff]+00`, turned into ISO without building a Date.
 */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const s = String(value);
  if (s.length >= 22 && s[10] === ' ' && s.endsWith('+00')) {
    const dot = s.indexOf('.', 19);
    const millis = dot === -1 ? '000' : `${s.slice(dot + 1, s.length - 3)}000`.slice(0, 3);
    return `${s.slice(0, 10)}T${s.slice(11, 19)}.${millis}Z`;
  }
  return new Date(s.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

/** Batch results keep timestamps as text (isoTimestamp reads them) instead of building Dates. */
const TIMESTAMP_OIDS = new Set([1114, 1184]);
const batchTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TIMESTAMP_OIDS.has(oid)
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens the database, applies pending migrations as the owner, then works as the non-owner app role. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'server') {
    if (target.migrationUrl) {
      const bounds = { ...defaultServerLimits, ...target.limits };
      await migrateServer(target.migrationUrl, bounds.connectTimeoutMs, bounds);
      return connectServer(target.url, target.poolSize, target.limits, target.listenUrl, {
        asAppRole: true,
        ownerUrl: target.migrationUrl,
      });
    }
    await migrateServer(target.url, target.limits?.connectTimeoutMs);
    return connectServer(target.url, target.poolSize, target.limits, target.listenUrl);
  }
  return openEmbedded(target);
}

async function openEmbedded(
  target:
    | { kind: 'embedded'; dataDir: string; purpose: string; image?: Blob }
    | { kind: 'memory'; image?: Blob },
) {
  const image = target.image;
  const lock = target.kind === 'embedded' ? lockDataDir(path.dirname(target.dataDir), target.purpose) : null;
  let client: PGlite | undefined;
  try {
    client = await PGlite.create({
      dataDir: target.kind === 'embedded' ? target.dataDir : undefined,
      loadDataDir: image,
      extensions,
    });
    const db = drizzlePglite(client);
    await migratePglite(db, { migrationsFolder });
    // PGlite runs no autovacuum, so planner statistics are refreshed here, at every start (an image
    // keeps those of the database it was dumped from).
    if (!image) await analyzeTables(client);
    await client.exec(`SET TimeZone = 'UTC'; SET ROLE ${APP_ROLE}`);
    const pglite = client;
    let closed = false;
    return {
      engine: 'postgresql',
      driver: 'pglite',
      db: db as unknown as AppDb,
      // In-process: round trips cost nothing, so the entry is a plain parameterised statement.
      tenantTransaction: (entry, fn) =>
        db.transaction(async (tx) => fn(tx as unknown as Tx, await enter(tx as unknown as Tx, entry))),
      // One call into PostgreSQL for the whole batch; exec waits for any open transaction to finish.
      async tenantBatch(entry, statements) {
        try {
          const results = await pglite.exec(batchText(entry, statements));
          return {
            entered: enteredOf(results),
            rows: results.slice(2, 2 + statements.length).map((r) => r.rows as Row[]),
          };
        } catch (err) {
          await pglite.exec('ROLLBACK').catch(() => undefined);
          throw err;
        }
      },
      async query(text, params) {
        if (closed) throw new Error('database closed');
        const result = await pglite.query<Row>(text, params);
        return { rows: result.rows };
      },
      async ping() {
        if (closed) throw new Error('database closed');
        await pglite.query('SELECT 1');
      },
      // One connection, in the process; statements queue inside PGlite, not here.
      poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
      // The session's own user is the owner; the role goes back to the app's when the transaction ends.
      ownerTransaction: (fn) =>
        db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL ROLE NONE`);
          return fn(tx as unknown as Tx);
        }),
      subscribe(channel, onNotify) {
        const unlisten = pglite.listen(channel, () => onNotify());
        return {
          async close() {
            if (!closed) await (await unlisten)().catch(() => undefined);
          },
        };
      },
      async close() {
        if (closed) return;
        closed = true;
        await pglite.close();
        lock?.release();
      },
    } satisfies Database;
  } catch (err) {
    await client?.close().catch(() => undefined);
    lock?.release();
    throw err;
  }
}

/**
 * Refreshes the planner statistics of the service's own tables. The system catalogs keep those initdb
 * gave them: analysing them too made a start 10–20 times slower (140–370 ms instead of about 12 ms on
 * a new database), in every CLI command and server start.
 */
async function analyzeTables(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables ORDER BY 1`,
  );
  if (rows.length > 0) await client.exec(`ANALYZE ${rows.map((r) => r.name).join(', ')}`);
}

/**
 * A migrated, analysed embedded database's data directory as a tar image, for `{ kind: 'memory', image }`:
 * the test suite migrates once per run (and per set of migrations) instead of once per test app.
 * An image is made for small, short-lived databases: 16 MB of shared buffers instead of 128 MB, 1 MB
 * WAL segments instead of 16 MB, no template databases, and a checkpoint before the dump, so that a
 * start replays no WAL (together, a start from the image in about half the time, from a 15 MB image).
 */
export async function migratedImage(): Promise<Blob> {
  const client = await PGlite.create({
    extensions,
    // 1 MB write-ahead log segments, at most 4 MB of them kept: a quarter of the image, instead of a
    // 16 MB segment that every load copies.
    initDbStartParams: ['--wal-segsize=1'],
    startParams: [...PGlite.defaultStartParams, '-c', 'min_wal_size=2MB', '-c', 'max_wal_size=4MB'],
  });
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder });
    await analyzeTables(client);
    await client.exec(`ALTER SYSTEM SET shared_buffers = '16MB'`);
    // Nothing creates a database from an image: the template databases are a third of its size.
    for (const template of ['template0', 'template1']) {
      await client.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
      await client.exec(`DROP DATABASE ${template}`);
    }
    await client.exec('CHECKPOINT');
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void;

/** Makes the pool refuse new callers at once when too many already wait for a connection. */
function boundQueue(pool: pg.Pool, maxWaiting: number): void {
  const connect = pool.connect.bind(pool) as (
    callback?: ConnectCallback,
  ) => Promise<pg.PoolClient> | undefined;
  (pool as unknown as { connect: typeof connect }).connect = (callback) => {
    if (pool.waitingCount >= maxWaiting) {
      const err = new DatabaseUnavailableError(
        `${pool.waitingCount} requests already wait for a database connection`,
      );
      if (callback) {
        callback(err);
        return undefined;
      }
      return Promise.reject(err);
    }
    return connect(callback);
  };
}

/** Works on the server database at `url` (already migrated) through a bounded pool. */
export async function connectServer(
  url: string,
  poolSize: number,
  limits: Partial<ServerLimits> = {},
  listenUrl: string = url,
  opts: { asAppRole?: boolean; ownerUrl?: string } = {},
): Promise<Database> {
  // Without a login of its own for migrations, `url` logs in as the owner and switches to the app role.
  const ownerUrl = opts.ownerUrl ?? (opts.asAppRole ? undefined : url);
  const bounds = { ...defaultServerLimits, ...limits };
  // Every connection works as the app role from its first statement on: a startup option, or (through
  // a transaction-pooling proxy, which takes none) by logging in as the role, whose settings the
  // migration connection set (migrateServer).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    // The server ends a long statement; the client gives up a little later if the server hangs.
    query_timeout: bounds.statementTimeoutMs + Math.min(2_000, bounds.statementTimeoutMs),
    ...(opts.asAppRole ? {} : { options: `-c role=${APP_ROLE} ${sessionSettings(bounds)}` }),
  });
  if (opts.asAppRole) {
    const { rows } = await pool.query<{ role: string; tz: string }>(
      "SELECT current_user AS role, current_setting('TimeZone') AS tz",
    );
    if (rows[0]?.role !== APP_ROLE || rows[0]?.tz !== 'UTC') {
      await pool.end();
      throw new Error(
        `With DATABASE_MIGRATION_URL set, DATABASE_URL must log in as ${APP_ROLE} (it logs in as ${rows[0]?.role}, time zone ${rows[0]?.tz}): see docs/operations.md#pgbouncer-transaction-pooling`,
      );
    }
  }
  boundQueue(pool, bounds.maxWaiting);
  pool.on('error', () => undefined); // an idle client lost its connection; the pool replaces it
  // Every client hears its own errors for its whole life: pg-pool listens only while a client is idle,
  // and a connection lost between a client's checkout and our listener (or between two queries) would
  // otherwise emit an unheard 'error' and end the process. The query in flight fails on its own.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return {
    engine: 'postgresql',
    driver: 'node-postgres',
    db: drizzleNodePg(pool) as unknown as AppDb,
    tenantTransaction: (entry, fn) =>
      withClient(pool, async (client) => {
        // One round trip: BEGIN and the entry go together over the simple query protocol.
        const results = (await client.query(`BEGIN; ${enterInline(entry)}`)) as unknown as pg.QueryResult[];
        const value = await fn(drizzleNodePg(client) as unknown as Tx, enteredOf(results));
        await client.query('COMMIT');
        return value;
      }),
    tenantBatch: (entry, statements) =>
      withClient(pool, async (client) => {
        const results = (await client.query({
          text: batchText(entry, statements),
          types: batchTypes,
        })) as unknown as pg.QueryResult<Row>[];
        return {
          entered: enteredOf(results),
          rows: results.slice(2, 2 + statements.length).map((r) => r.rows),
        };
      }),
    async query(text, params) {
      const result = await pool.query<Row>(text, params);
      return { rows: result.rows };
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolSize,
    }),
    subscribe: (channel, onNotify) => listenOn(listenUrl, bounds.connectTimeoutMs, channel, onNotify),
    async ownerTransaction(fn) {
      if (!ownerUrl) throw new Error('no owner login: set DATABASE_MIGRATION_URL');
      const client = new pg.Client({
        connectionString: ownerUrl,
        connectionTimeoutMillis: bounds.connectTimeoutMs,
        options: '-c TimeZone=UTC',
      });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return await drizzleNodePg(client).transaction((tx) => fn(tx as unknown as Tx));
      } finally {
        await client.end();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

const RELISTEN_MS = [500, 1_000, 2_000, 5_000, 10_000];

/**
 * LISTEN on one connection of its own (a notification needs a session that stays: not through a
 * transaction-pooling proxy). When the connection is lost it is made again, with back-off; once it is
 * back, `onNotify` is called for what may have been missed.
 */
function listenOn(
  url: string,
  connectTimeoutMs: number,
  channel: string,
  onNotify: () => void,
): Subscription {
  let client: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(
      () => {
        retry = undefined;
        void connect();
      },
      RELISTEN_MS[Math.min(failures, RELISTEN_MS.length - 1)],
    );
    retry.unref();
    failures++;
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
    c.on('error', () => undefined); // a lost connection also ends it: 'end' below
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify();
    });
    c.on('end', () => {
      if (client === c) client = undefined;
      again();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      await c.end().catch(() => undefined);
      again();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    if (failures > 0) onNotify();
    failures = 0;
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * Runs `fn` on a pooled connection that it leaves in a transaction or not at all: on a throw the
 * transaction is rolled back (a no-op after a failed COMMIT), and a connection where even ROLLBACK
 * fails is dropped rather than returned to the pool.
 */
async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client whose connection is lost emits 'error'; unheard, that would end the process.
  // The query in flight fails on its own; the client is dropped on release.
  let unusable: Error | undefined;
  const onError = (err: Error) => {
    unusable = err;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    // A lost or hung connection is not asked to roll back (that would wait once more): it is dropped,
    // and the server rolls back the transaction of a connection that goes away.
    if (isDatabaseUnavailable(err)) unusable ??= err as Error;
    if (!unusable) {
      await client.query('ROLLBACK').catch((e: Error) => {
        unusable = e;
      });
    }
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(unusable);
  }
}

/** The settings of every app session: UTC, and the statement and idle-in-transaction bounds. */
const sessionSettings = (bounds: ServerLimits) =>
  `-c TimeZone=UTC -c statement_timeout=${bounds.statementTimeoutMs} -c idle_in_transaction_session_timeout=${bounds.statementTimeoutMs * 2}`;

/**
 * Applies migrations on one connection under an advisory lock, so concurrent starts do not race. With
 * `appRoleSettings` (the app logs in as actiondesk_app itself), the role's session settings are set
 * too, as the role's defaults.
 */
async function migrateServer(
  url: string,
  connectTimeoutMs = defaultServerLimits.connectTimeoutMs,
  appRoleSettings?: ServerLimits,
): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => undefined); // a lost connection fails the migration's query instead
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(472038611)');
    await migrateNodePg(drizzleNodePg(client), { migrationsFolder });
    if (appRoleSettings) {
      await client.query(
        `ALTER ROLE ${APP_ROLE} SET TimeZone = 'UTC';
         ALTER ROLE ${APP_ROLE} SET statement_timeout = ${appRoleSettings.statementTimeoutMs};
         ALTER ROLE ${APP_ROLE} SET idle_in_transaction_session_timeout = ${appRoleSettings.statementTimeoutMs * 2}`,
      );
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(472038611)').catch(() => undefined);
    await client.end();
  }
}

/**
 * Ids as one uuid[] parameter (for `= ANY(…)` or `unnest(…)`): one statement for any number of ids.
 * Strings that are not ids are left out (they name nothing).
 */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.filter(isId).join(',')}}`}::uuid[]`;

/**
 * Maps a raw row (database column names, as read batches return them) onto the table's typed row,
 * using each column's own driver mapping (timestamps to Dates, arrays, JSON).
 */
export function rowMapper<T extends Table>(table: T): (raw: Row) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table));
  return (raw) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return out as T['$inferSelect'];
  };
}
