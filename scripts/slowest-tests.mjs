// Prints the slowest test files of the last `npm test` run (kept by test/support/timings-reporter.cjs).
// `npm run test:slowest` shows 10; `npm run test:slowest -- 25` shows 25; a second argument names another
// kept run, e.g. `npm run test:slowest -- 10 timings-server-node24.json`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'node_modules/.cache/actiondesk-tests', process.argv[3] ?? 'timings.json');
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
const tierOf = (f) =>
  f.startsWith('test/unit/') ? 'unit' : f.endsWith('.browser.test.ts') ? 'browser' : 'HTTP and process';
const tiers = new Map();
for (const f of run.files) {
  const t = tiers.get(tierOf(f.file)) ?? { files: 0, tests: 0, seconds: 0 };
  tiers.set(tierOf(f.file), { files: t.files + 1, tests: t.tests + f.tests, seconds: t.seconds + f.seconds });
}
console.log('tier                files  tests  seconds (summed over files)');
for (const [tier, t] of tiers) {
  console.log(
    `${tier.padEnd(18)}  ${String(t.files).padStart(5)}  ${String(t.tests).padStart(5)}  ${t.seconds.toFixed(0).padStart(7)}`,
  );
}
console.log('\nseconds  tests  file');
for (const f of run.files.slice(0, count)) {
  console.log(
    `${f.seconds.toFixed(1).padStart(7)}  ${String(f.tests).padStart(5)}  ${f.file}${f.failed ? '  (failed)' : ''}`,
  );
}
