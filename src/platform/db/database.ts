import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from '../../db/schema';
import { projectRoot } from '../paths';
import { lockDataDir } from './lock';

export type Schema = typeof schema;
export type AppDb = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];
/** Either the database or an open transaction: what repositories run their queries on. */
export type Queryable = AppDb | Tx;

/** The role the application works as; see migration 0000. */
export const APP_ROLE = 'actiondesk_app';

export interface Database {
  readonly engine: 'postgresql';
  readonly driver: 'pglite' | 'node-postgres';
  readonly db: AppDb;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'embedded'; dataDir: string; purpose: string }
  | { kind: 'memory' }
  | { kind: 'server'; url: string; poolSize: number };

const migrationsFolder = path.join(projectRoot, 'src/db/migrations');

/** Opens the database, applies pending migrations as the owner, then works as the non-owner app role. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'server') return openServer(target.url, target.poolSize);
  return openEmbedded(target);
}

async function openEmbedded(
  target: { kind: 'embedded'; dataDir: string; purpose: string } | { kind: 'memory' },
) {
  const lock = target.kind === 'embedded' ? lockDataDir(path.dirname(target.dataDir), target.purpose) : null;
  let client: PGlite | undefined;
  try {
    client = await PGlite.create({
      dataDir: target.kind === 'embedded' ? target.dataDir : undefined,
      extensions: { pg_trgm, btree_gin },
    });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    await client.exec(`SET ROLE ${APP_ROLE}`);
    const pglite = client;
    let closed = false;
    return {
      engine: 'postgresql',
      driver: 'pglite',
      db: db as unknown as AppDb,
      async ping() {
        if (closed) throw new Error('database closed');
        await pglite.query('SELECT 1');
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

async function openServer(url: string, poolSize: number): Promise<Database> {
  await migrateServer(url);
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 });
  // Queries on a client run in order, so the role is set before anything the application sends.
  pool.on('connect', (c) => {
    c.query(`SET ROLE ${APP_ROLE}`).catch(() => undefined);
  });
  pool.on('error', () => undefined); // an idle client lost its connection; the pool replaces it
  return {
    engine: 'postgresql',
    driver: 'node-postgres',
    db: drizzleNodePg(pool, { schema }) as unknown as AppDb,
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** Applies migrations on one connection under an advisory lock, so concurrent starts do not race. */
async function migrateServer(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(472038611)');
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(472038611)').catch(() => undefined);
    await client.end();
  }
}

export { sql };

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
