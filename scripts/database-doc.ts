// npm run docs:database — writes docs/database.md: the tables, row-level security, triggers and functions
// of a freshly migrated in-memory database, read from its catalogue (see support/database-catalogue.ts).
// test/database-catalogue.test.ts fails until the page is written again after a migration changes them.
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/platform/db/open';
import { projectRoot } from '../src/platform/kernel/paths';
import { DOCUMENT_PATH, databaseDocument } from './support/database-catalogue';

async function main(): Promise<void> {
  const database = await openDatabase({ kind: 'memory' });
  let markdown: string;
  try {
    markdown = await databaseDocument(database.db);
  } finally {
    await database.close();
  }
  const name = path.relative(projectRoot, DOCUMENT_PATH);
  if (fs.existsSync(DOCUMENT_PATH) && fs.readFileSync(DOCUMENT_PATH, 'utf8') === markdown) {
    console.log(`${name} is up to date`);
    return;
  }
  fs.writeFileSync(DOCUMENT_PATH, markdown);
  console.log(`${name} written`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
