import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import {
  APP_ROLE,
  type AppDb,
  batchText,
  type Database,
  enter,
  enteredOf,
  migrationsFolder,
  queryRows,
  type Row,
  type Tx,
} from './database';
import { lockDataDir } from './lock';

/** The PostgreSQL extensions every embedded database loads (the migrations create them). */
const extensions = { pg_trgm, btree_gin };

/**
 * The embedded database (PGlite): in DATA_DIR, locked against a second process, or in memory (tests),
 * optionally started from a migrated image; migrated at every start.
 */
export async function openEmbedded(
  target:
    | { kind: 'embedded'; dataDir: string; purpose: string; image?: Blob }
    | { kind: 'memory'; image?: Blob },
): Promise<Database> {
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
      tenantTransaction: (entry, fn, opening) =>
        db.transaction(async (tx) => {
          const entered = await enter(tx as unknown as Tx, entry);
          const opened = opening ? await queryRows<Row>(tx, opening) : [];
          return fn(tx as unknown as Tx, entered, opened);
        }),
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
