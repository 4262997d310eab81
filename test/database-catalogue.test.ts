// docs/database.md is what a freshly migrated database says about itself (scripts/database-doc.ts): this
// test regenerates it from the test database and fails, naming the first line that differs, until
// `npm run docs:database` is run again after a migration changed a table, a trigger or a function.
import fs from 'node:fs';
import path from 'node:path';
import { DOCUMENT_PATH, databaseDocument } from '../scripts/support/database-catalogue';
import { projectRoot } from '../src/platform/kernel/paths';
import { openTestDatabase } from './support/harness';

/** Where two texts first differ, for a failure message a person can act on; undefined when equal. */
function firstDifference(committed: string, generated: string): string | undefined {
  if (committed === generated) return undefined;
  const was = committed.split('\n');
  const is = generated.split('\n');
  const at = is.findIndex((line, i) => line !== was[i]);
  const line = at === -1 ? is.length : at;
  const show = (text: string | undefined) => (text === undefined ? '(end of file)' : JSON.stringify(text));
  return [
    `${path.relative(projectRoot, DOCUMENT_PATH)} does not describe the migrated database.`,
    'Run `npm run docs:database` and commit the result.',
    `First difference, line ${line + 1}:`,
    `  in the file:      ${show(was[line])}`,
    `  from the database: ${show(is[line])}`,
  ].join('\n');
}

it('when the migrations ran, then docs/database.md is what the database says about itself', async () => {
  const database = await openTestDatabase();
  let generated: string;
  try {
    generated = await databaseDocument(database.db);
  } finally {
    await database.close();
  }
  const committed = fs.existsSync(DOCUMENT_PATH) ? fs.readFileSync(DOCUMENT_PATH, 'utf8') : '';
  const difference = firstDifference(committed, generated);
  if (difference) throw new Error(difference);
  expect(generated).toBe(committed);
});
