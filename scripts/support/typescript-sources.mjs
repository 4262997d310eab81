// The TypeScript files under a folder, sorted, for the lint scripts that read src/ (check-sizes,
// check-raw-input).
import fs from 'node:fs';
import path from 'node:path';

/** Every `.ts` file below `dir` (paths as `dir/…`), sorted. */
export function typescriptSources(dir) {
  const files = [];
  const walk = (at) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  walk(dir);
  return files.sort();
}
