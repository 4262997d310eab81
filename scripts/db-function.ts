// npm run db:function -- <migration name> <function> [<function> …] — after editing src/db/functions/<function>.sql,
// writes a new migration that re-creates the function(s) as the file(s) now say: an empty one from
// `drizzle-kit generate --custom` (its snapshot and journal entry, as every hand-written migration has),
// filled with each file's statements; each file's first line then names that migration.
// test/database-functions.test.ts checks that the files and the migrated database agree.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from '../src/platform/db/database';
import { projectRoot } from '../src/platform/kernel/paths';
import { BREAKPOINT, FUNCTIONS_DIR, withLiveSince } from './support/database-functions';

const USAGE = 'usage: npm run db:function -- <migration name> <function> [<function> …]';

/** The tag of the newest migration in drizzle's journal. */
function newestTag(): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const tag = journal.entries.at(-1)?.tag;
  if (!tag) throw new Error('the migrations journal has no entries');
  return tag;
}

/** A file's text without its first line (which names the migration it is live since). */
const withoutLiveSince = (text: string) => text.replace(/^-- Live since migration .*\n(?:--\n)?/, '');

function main(): void {
  const [name, ...functions] = process.argv.slice(2);
  if (!name || !/^[a-z0-9_]+$/.test(name) || functions.length === 0) throw new Error(USAGE);
  const files = functions.map((f) => path.join(FUNCTIONS_DIR, `${f}.sql`));
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length > 0) throw new Error(`no such file: ${missing.join(', ')}\n${USAGE}`);

  execFileSync(
    process.execPath,
    [path.join(projectRoot, 'node_modules/drizzle-kit/bin.cjs'), 'generate', '--custom', `--name=${name}`],
    { cwd: projectRoot, stdio: 'inherit' },
  );
  const tag = newestTag();
  const migration = path.join(migrationsFolder, `${tag}.sql`);
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  fs.writeFileSync(migration, `${texts.map((t) => withoutLiveSince(t).trim()).join(`\n${BREAKPOINT}\n`)}\n`);
  files.forEach((f, i) => {
    fs.writeFileSync(f, withLiveSince(texts[i] ?? '', tag));
  });
  console.log(
    `${path.relative(projectRoot, migration)} re-creates ${functions.join(', ')}. Read it before committing: a`,
  );
  console.log('changed result type or argument name needs a DROP FUNCTION first (and its grants again).');
}

try {
  main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
