import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { type FileStorage, saveStoredFiles } from '../files/storage';
import { type Database, queryRows, type Tx } from './database';
import { writeJsonLines } from './json-lines';

/**
 * A copy of the whole database — every organisation, and the service's own tables — for moving from the
 * embedded database to a server, or from one server to another (docs/operations.md#moving-to-a-server).
 * `exportDatabase` writes a directory; `importDatabase` loads it into a new, empty database of the same
 * schema version. Unlike the organisation export (offboarding) it keeps credentials and their hashes, so
 * API keys, OAuth clients, links sent to contacts and staff passwords keep working; the directory is as
 * secret as the database itself.
 */
export interface DatabaseManifest {
  format: 'actiondesk-database-export';
  version: 1;
  /** Migrations applied to the exported database; the target must have exactly as many. */
  migrations: number;
  exportedAt: string;
  /** Rows per table, in the order they are loaded; each table is `tables/<table>.jsonl`. */
  tables: Record<string, number>;
  /** The files' bytes, as `files/<organisationId>/<fileId>`, each checked against its SHA-256. */
  files: { count: number; bytes: number; missing: string[] };
}

class TransferError extends Error {
  override name = 'TransferError';
}

/**
 * Left out: counters and sign-in state that expire within the hour (rate limits, browser sessions,
 * failed sign-ins; staff sign in again), file parts (the bytes travel as files, to whatever file
 * store the target uses) and the files' drawn pages (a cache, drawn again when first shown).
 */
const NOT_COPIED = new Set([
  'rate_counters',
  'staff_sessions',
  'sign_in_failures',
  'file_contents',
  'file_pages',
]);

const BATCH = 1_000;

/** The tables to copy, referenced tables before the tables that point at them. */
async function tablesInLoadOrder(tx: Tx): Promise<string[]> {
  const tables = (
    await queryRows<{ name: string }>(
      tx,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    )
  )
    .map((t) => t.name)
    .filter((t) => !NOT_COPIED.has(t));
  const edges = await queryRows<{ child: string; parent: string }>(
    tx,
    sql`SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE c.contype = 'f' AND n.nspname = 'public' AND c.conrelid <> c.confrelid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  let remaining = tables;
  while (remaining.length > 0) {
    const ready = remaining.filter((t) =>
      edges.every((e) => e.child !== t || placed.has(e.parent) || !tables.includes(e.parent)),
    );
    if (ready.length === 0)
      throw new TransferError(`foreign keys form a cycle among ${remaining.join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
    remaining = remaining.filter((t) => !placed.has(t));
  }
  return ordered;
}

async function migrationCount(tx: Tx): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    tx,
    sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Writes the whole database into `outDir` (empty or new): `tables/<table>.jsonl`, `files/…` and
 * `manifest.json`, written last. The rows are read in one snapshot (REPEATABLE READ), so they are
 * consistent with each other even while the service runs; files added after the snapshot are not in it.
 */
export async function exportDatabase(
  database: Database,
  storage: FileStorage,
  outDir: string,
  now: Date,
): Promise<DatabaseManifest> {
  await mkdir(outDir, { recursive: true });
  if ((await readdir(outDir)).length > 0) throw new TransferError(`${outDir} is not empty`);
  await mkdir(path.join(outDir, 'tables'));
  const { migrations, tables, files } = await database.ownerTransaction(async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const migrations = await migrationCount(tx);
    const tables: Record<string, number> = {};
    for (const table of await tablesInLoadOrder(tx)) {
      tables[table] = await writeJsonLines(
        tx,
        sql`SELECT to_jsonb(t)::text AS line FROM ${sql.identifier(table)} t`,
        path.join(outDir, 'tables', `${table}.jsonl`),
        BATCH,
      );
    }
    const files = await queryRows<{ storage_key: string; sha256: string }>(
      tx,
      sql`SELECT storage_key, sha256 FROM files ORDER BY organisation_id, id`,
    );
    return { migrations, tables, files };
  });

  const saved = await saveStoredFiles(
    storage,
    files.map((f) => ({ key: f.storage_key, sha256: f.sha256, saveAs: f.storage_key })),
    path.join(outDir, 'files'),
  );
  const manifest: DatabaseManifest = {
    format: 'actiondesk-database-export',
    version: 1,
    migrations,
    exportedAt: now.toISOString(),
    tables,
    files: saved,
  };
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    flag: 'wx',
  });
  return manifest;
}

async function readManifest(fromDir: string): Promise<DatabaseManifest> {
  let manifest: DatabaseManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(fromDir, 'manifest.json'), 'utf8')) as DatabaseManifest;
  } catch (err) {
    throw new TransferError(
      `${fromDir} holds no readable manifest.json (${(err as Error).message}): is it a finished 'cli export'?`,
    );
  }
  if (manifest.format !== 'actiondesk-database-export' || manifest.version !== 1)
    throw new TransferError(
      `${fromDir} is not a database export (an organisation export cannot be imported)`,
    );
  return manifest;
}

/**
 * Loads an export into this database, which must be new: migrated to the same version and without any
 * organisation. All rows go in one transaction (all or nothing), with the tables' own triggers off, so
 * nothing is audited, announced or queued twice; the change order of every row starts anew (sync cursors
 * from the old database make a CRM read everything once more). Then the files are written to the
 * configured file store. With `filesOnly`, only the files are written: a second run after a file store
 * failed part-way.
 */
export async function importDatabase(
  database: Database,
  storage: FileStorage,
  fromDir: string,
  opts: { filesOnly?: boolean } = {},
): Promise<{ tables: Record<string, number>; files: number; bytes: number }> {
  const manifest = await readManifest(fromDir);
  const tables: Record<string, number> = {};
  const stored = await database.ownerTransaction(async (tx) => {
    const migrations = await migrationCount(tx);
    if (migrations !== manifest.migrations)
      throw new TransferError(
        `the export is of schema version ${manifest.migrations} and this database is at ${migrations}: import with the release that made the export`,
      );
    const [orgs] = await queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM organisations`);
    const empty = Number(orgs?.n) === 0;
    if (opts.filesOnly) {
      if (empty)
        throw new TransferError('--files-only needs the rows imported first; this database is empty');
      return storedFiles(tx);
    }
    if (!empty)
      throw new TransferError(
        'this database already holds organisations: import only into a new database (nothing was changed)',
      );
    await tx.execute(sql`SET LOCAL statement_timeout = 0`);
    const order = await tablesInLoadOrder(tx);
    const unknown = Object.keys(manifest.tables).filter((t) => !order.includes(t));
    if (unknown.length > 0)
      throw new TransferError(`the export has tables this database does not: ${unknown.join(', ')}`);
    for (const table of order)
      await tx.execute(sql`ALTER TABLE ${sql.identifier(table)} DISABLE TRIGGER USER`);
    for (const table of order) {
      if (!(table in manifest.tables)) continue;
      tables[table] = await loadTable(tx, table, path.join(fromDir, 'tables', `${table}.jsonl`));
      if (tables[table] !== manifest.tables[table])
        throw new TransferError(
          `${table}.jsonl holds ${tables[table]} rows, the manifest says ${manifest.tables[table]}: the export is incomplete`,
        );
    }
    for (const table of order)
      await tx.execute(sql`ALTER TABLE ${sql.identifier(table)} ENABLE TRIGGER USER`);
    // Identity and serial columns continue after the highest value loaded.
    const sequences = await queryRows<{ table: string; column: string; sequence: string }>(
      tx,
      sql`SELECT c.relname AS table, a.attname AS column, pg_get_serial_sequence(c.oid::regclass::text, a.attname) AS sequence
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
             AND pg_get_serial_sequence(c.oid::regclass::text, a.attname) IS NOT NULL`,
    );
    for (const s of sequences)
      await tx.execute(
        sql`SELECT setval(${s.sequence}::regclass, greatest(max(${sql.identifier(s.column)}), 1), max(${sql.identifier(s.column)}) IS NOT NULL) FROM ${sql.identifier(s.table)}`,
      );
    return storedFiles(tx);
  });

  const missing = new Set(manifest.files.missing);
  let files = 0;
  let bytes = 0;
  for (const file of stored) {
    if (missing.has(file.storage_key)) continue;
    const written = await storage
      .put(file.storage_key, createReadStream(path.join(fromDir, 'files', ...file.storage_key.split('/'))))
      .catch((err: Error) => {
        throw new TransferError(
          `the rows are imported, but file ${file.storage_key} could not be written (${err.message}): mend it, then run the import again with --files-only`,
        );
      });
    if (written.sha256 !== file.sha256)
      throw new TransferError(
        `the rows are imported, but file ${file.storage_key} in the export does not match its SHA-256: the export is damaged; import its files again with --files-only from an intact copy`,
      );
    files++;
    bytes += written.size;
  }
  return { tables, files, bytes };
}

/** Every file's storage key and SHA-256. */
const storedFiles = (tx: Tx) =>
  queryRows<{ storage_key: string; sha256: string }>(tx, sql`SELECT storage_key, sha256 FROM files`);

/**
 * Inserts the table's rows from a JSON-lines file, BATCH at a time. Columns the database computes are
 * left to it; transaction-id columns (the change order) get this transaction's id, because ids of the
 * old database mean nothing here.
 */
async function loadTable(tx: Tx, table: string, file: string): Promise<number> {
  const columns = await queryRows<{ name: string; type: string }>(
    tx,
    sql`SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
          FROM pg_attribute a
         WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
         ORDER BY a.attnum`,
  );
  const names = sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const values = sql.join(
    columns.map((c) => (c.type === 'xid8' ? sql`pg_current_xact_id()` : sql`r.${sql.identifier(c.name)}`)),
    sql`, `,
  );
  let count = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.execute(
      sql`INSERT INTO ${sql.identifier(table)} (${names}) OVERRIDING SYSTEM VALUE
          SELECT ${values} FROM jsonb_populate_recordset(NULL::${sql.identifier(table)}, ${`[${batch.join(',')}]`}::jsonb) r`,
    );
    count += batch.length;
    batch = [];
  };
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    batch.push(line);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return count;
}
