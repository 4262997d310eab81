import fs from 'node:fs';
import path from 'node:path';

function findRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

/** The project directory, whether running from src/ (tests) or dist/src/ (build). */
export const projectRoot = findRoot(__dirname);
