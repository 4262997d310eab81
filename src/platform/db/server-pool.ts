import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  APP_ROLE,
  type AppDb,
  batchText,
  batchTypes,
  type Database,
  defaultServerLimits,
  enteredOf,
  enterInline,
  holdWritesOn,
  migrationsFolder,
  type Row,
  type ServerLimits,
  type Subscription,
  type Tx,
} from './database';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './errors';
import { StatementCache } from './statement-cache';

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
  // Prepared statements, except through a transaction-pooling proxy (logging in as the app role).
  const statements = new StatementCache(!opts.asAppRole);
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
    tenantTransaction: (entry, fn, opening) =>
      withClient(
        pool,
        async (client) => {
          const send = async (text: string) => {
            try {
              return (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
            } catch (err) {
              if (text.includes('PREPARE ')) statements.failed(client);
              throw err;
            }
          };
          // One round trip: BEGIN, the entry and the opening read go together over the simple query
          // protocol (the read as EXECUTE of the connection's prepared statement).
          const opened = opening ? `;\n${statements.simpleText(client, opening)}` : '';
          const results = (await send(`BEGIN; ${enterInline(entry)}${opened}`)) as pg.QueryResult[];
          // Writes deferred with deferWrite wait here, as literal statements, and go before the next
          // statement, or with COMMIT in one simple-protocol message.
          const held: string[] = [];
          // Every statement the transaction runs goes through here: held writes first, and each query
          // under its prepared statement's name (node-postgres prepares it on the connection once).
          const query = (config: pg.QueryConfig, values?: unknown[]) => {
            const run = () =>
              client.query(
                { ...config, name: config.name ?? statements.protocolName(client, config.text) },
                values,
              );
            return held.length === 0 ? run() : send(held.splice(0).join(';\n')).then(run);
          };
          const tx = drizzleNodePg({ query } as unknown as pg.PoolClient) as unknown as Tx;
          holdWritesOn(tx, (statement) => held.push(statements.simpleText(client, statement)));
          const value = await fn(tx, enteredOf(results), opening ? (results.at(-1)?.rows ?? []) : []);
          await send(held.length === 0 ? 'COMMIT' : `${held.splice(0).join(';\n')};\nCOMMIT`);
          return value;
        },
        statements,
      ),
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
async function withClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  statements?: StatementCache,
): Promise<T> {
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
    if (statements && !statements.usable(client)) unusable ??= new Error('prepared statements unknown');
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
export async function migrateServer(
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
