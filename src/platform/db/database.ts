import path from 'node:path';
import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { isId } from '../kernel/ids';
import { projectRoot } from '../kernel/paths';

/** The committed migrations, applied at every start (both drivers). */
export const migrationsFolder = path.join(projectRoot, 'src/db/migrations');

/** What repositories run their queries on: the database, or an open transaction. */
export type AppDb = PgDatabase<PgQueryResultHKT>;
declare const tenantTransaction: unique symbol;
/**
 * A tenant transaction: row-level security scoped to one organisation, the caller's credentials
 * confirmed. Branded so only the drivers' `tenantTransaction` (through `inTenant`) make one: passing the
 * bare database (`database.db`, which sees no tenant rows) where a repository needs a transaction is a
 * compile error instead of an empty result.
 */
export type Tx = AppDb & { readonly [tenantTransaction]: true };
/** Where statements that need no tenant may run: the bare database, or any transaction. */
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
  /**
   * Runs `fn` in a transaction opened with `actiondesk_enter(entry)`; commits, or rolls back on a throw.
   * `opening`, a read, runs right after the entry (on the server driver in the same round trip as BEGIN
   * and the entry) and `fn` gets its rows; they count only when the entry answered 'ok'.
   */
  tenantTransaction<T>(
    entry: TenantEntry,
    fn: (tx: Tx, entered: EntryResult, opened: Row[]) => Promise<T>,
    opening?: SQL,
  ): Promise<T>;
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

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Where a transaction's held writes go (see deferWrite): set by the driver that opened it. */
const writeHolders = new WeakMap<object, (statement: SQL) => void>();

/** Drivers only: `tx` holds its deferred writes with `hold` until it sends them itself. */
export function holdWritesOn(tx: object, hold: (statement: SQL) => void): void {
  writeHolders.set(tx, hold);
}

/**
 * Runs a write whose answer the caller does not need (it reads no RETURNING and catches no error of
 * it) as late as the transaction allows, to save round trips: the server driver sends it before the
 * transaction's next statement, or with its COMMIT in the same round trip; the embedded database and
 * nested transactions run it at once. Statements keep their order, so anything made after it sees it.
 * If it fails, the transaction fails where it is sent (its next statement, or the commit).
 */
export async function deferWrite(tx: Tx, statement: SQL): Promise<void> {
  const hold = writeHolders.get(tx);
  if (hold) hold(statement);
  else await tx.execute(statement);
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

/** An array as PostgreSQL's array literal ('{"a","b"}'), its elements quoted. */
function arrayLiteral(values: unknown[]): string {
  const element = (v: unknown): string => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  };
  return `{${values.map(element).join(',')}}`;
}

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return pg.escapeLiteral(arrayLiteral(value));
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'`;
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
  return inlineQuery(text, params);
}

/** A rendered statement (`$n` placeholders) with its parameters put in as literals. */
export function inlineQuery(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/** The entry for the simple query protocol: the same statement, its values inlined as literals. */
export const enterInline = (e: TenantEntry): string => inlineStatement(enterStatement(e));

/** A read batch as one simple-protocol message; its results are [BEGIN, entry, …statements, COMMIT]. */
export const batchText = (entry: TenantEntry, statements: SQL[]): string =>
  ['BEGIN', enterInline(entry), ...statements.map(inlineStatement), 'COMMIT'].join(';\n');

export const enteredOf = (results: { rows: unknown[] }[]): EntryResult =>
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
export const batchTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TIMESTAMP_OIDS.has(oid)
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

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
