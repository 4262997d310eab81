// Builds dist/ with `tsc -p tsconfig.build.json` only when a source is newer than the last build: the
// test suite, `npm start`, the CLI and the scripts all call it, and a current build costs a few
// milliseconds instead of a compiler run. `node scripts/build.mjs --force` always compiles.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist/.build-stamp');
const inputs = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time under `p` (a file or a directory), in milliseconds. */
function newest(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) latest = Math.max(latest, newest(path.join(p, entry)));
  return latest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...inputs.map((i) => newest(path.join(root, i))));
if (process.argv.includes('--force') || changed >= built) {
  const startedAt = Date.now();
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  // The stamp is written after a successful compile, dated from its start: a file saved meanwhile is newer.
  fs.writeFileSync(stamp, '');
  fs.utimesSync(stamp, startedAt / 1000, startedAt / 1000);
}
