// How the benches' bare references (bare-reference.ts, bare-create.ts) reach the database: pg on the
// server named by DATABASE_URL (a pool of DATABASE_POOL_SIZE, default 10), else PGlite on PGDATA_DIR —
// as the table owner, with no framework, ORM or tenant entry.
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/** One parameterised statement; `name` prepares it on the server (PGlite ignores it). */
export type BareQuery = (
  text: string,
  params: unknown[],
  name?: string,
) => Promise<Record<string, unknown>[]>;

/**
 * The database, with `settings` (e.g. `app.audit_rows`, `app.organisation_id`) set for every connection
 * before its first statement (startup options on the server); `close` ends it.
 */
export async function openBareDatabase(
  settings: Record<string, string>,
): Promise<{ query: BareQuery; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({
      connectionString: url,
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      options: Object.entries(settings)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    });
    return {
      query: async (text, values, name) => (await pool.query({ text, values, name })).rows,
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create({ dataDir: process.env.PGDATA_DIR, extensions: { pg_trgm, btree_gin } });
  for (const [name, value] of Object.entries(settings))
    await db.query(`SELECT set_config($1, $2, false)`, [name, value]);
  return {
    query: async (text, values) => (await db.query<Record<string, unknown>>(text, values)).rows,
    close: () => db.close(),
  };
}
