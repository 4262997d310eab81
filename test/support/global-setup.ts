import { execFileSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { migratedImage } from '../../src/platform/db/embedded';
import { openDatabase } from '../../src/platform/db/open';
import { missingTools } from './preflight';
import { serverDatabases } from './server-databases';

const root = path.resolve(__dirname, '../..');

/**
 * Before any test: checks the tools the suite runs; builds dist/ when a source is newer than it (the CLI
 * and process tests run the compiled entry points); and prepares the databases test apps start from.
 * On a server, migrates DATABASE_URL and a template database from which every test app gets a database
 * of its own (see server-databases.ts). Embedded, migrates one database and keeps its data directory as
 * an image every test app loads (see embeddedTemplates).
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const missing = missingTools(Boolean(url));
  if (missing) {
    process.stderr.write(`\n${missing}\n\n`);
    throw new Error('Missing tools: see above');
  }
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  const sources = sourceHash();
  process.env.ACTIONDESK_SOURCE_HASH = sources;
  // The OpenAPI documents test apps kept for earlier states of the sources are of no more use.
  const documents = path.join(root, 'node_modules/.cache/actiondesk-tests/openapi');
  for (const kept of fs.existsSync(documents) ? fs.readdirSync(documents) : [])
    if (kept !== sources) fs.rmSync(path.join(documents, kept), { recursive: true, force: true });
  if (url) {
    const database = await openDatabase({ kind: 'server', url, poolSize: 1 });
    await database.close();
    await serverDatabases(url).createTemplate();
  } else {
    const { image, dataDir } = await embeddedTemplates();
    process.env.ACTIONDESK_TEST_IMAGE = image;
    process.env.ACTIONDESK_TEST_PGDATA = dataDir;
  }
}

/**
 * The migrated embedded database, made once per set of migrations, PGlite version and database.ts,
 * and kept in node_modules/.cache: as an image file that in-process test apps load (under a second instead of three),
 * and as a data directory that tests running the built server or CLI copy into their DATA_DIR (see
 * seedDataDir in spawned.ts), so that a process starts without creating and migrating a database.
 */
async function embeddedTemplates(): Promise<{ image: string; dataDir: string }> {
  const migrations = path.join(root, 'src/db/migrations');
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version);
  // How the image is made (migratedImage) and opened.
  hash.update(fs.readFileSync(path.join(root, 'src/platform/db/database.ts')));
  hashTree(hash, migrations);
  const cache = path.join(root, 'node_modules/.cache/actiondesk-tests/templates');
  const dir = path.join(cache, `embedded-${hash.digest('hex').slice(0, 16)}`);
  const image = path.join(dir, 'image.tar');
  const dataDir = path.join(dir, 'pgdata');
  if (!fs.existsSync(path.join(dir, 'complete'))) {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const made = await migratedImage();
    fs.writeFileSync(image, Buffer.from(await made.arrayBuffer()));
    // The same database on disk, shut down cleanly: loaded from the image rather than migrated again.
    const onDisk = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test template', image: made });
    await onDisk.close();
    fs.writeFileSync(path.join(dir, 'complete'), '');
  }
  return { image, dataDir };
}

/**
 * A hash of everything the app's behaviour is built from (its sources and locked dependencies): what
 * the test apps derive from the code alone, such as their OpenAPI document, is kept under it for the
 * run and the next ones (see documentFor in harness.ts).
 */
function sourceHash(): string {
  const hash = createHash('sha256');
  hashTree(hash, path.join(root, 'src'));
  hash.update(fs.readFileSync(path.join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Adds every file under `dir` to `hash`: its path within `dir` and its content, in a stable order. */
function hashTree(hash: Hash, dir: string): void {
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
}
