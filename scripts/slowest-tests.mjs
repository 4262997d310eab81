// Prints the slowest test files of the last `npm test` run (kept by test/support/timings-reporter.cjs).
// `npm run test:slowest` shows 10; `npm run test:slowest -- 25` shows 25.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'node_modules/.cache/actiondesk-tests/timings.json');
if (!fs.existsSync(file)) {
  console.error('No timings yet: run `npm test` (or part of it) first.');
  process.exit(1);
}
const run = JSON.parse(fs.readFileSync(file, 'utf8'));
const count = Number(process.argv[2] ?? 10);
const total = run.files.reduce((sum, f) => sum + f.seconds, 0);
console.log(
  `Last run: ${run.finishedAt}, ${run.database} database, Node ${run.node}, ${run.files.length} files, ` +
    `${run.wallSeconds.toFixed(0)} s wall (${total.toFixed(0)} s summed over files)\n`,
);
console.log('seconds  tests  file');
for (const f of run.files.slice(0, count)) {
  console.log(
    `${f.seconds.toFixed(1).padStart(7)}  ${String(f.tests).padStart(5)}  ${f.file}${f.failed ? '  (failed)' : ''}`,
  );
}
