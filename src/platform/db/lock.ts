import fs from 'node:fs';
import path from 'node:path';

/** Another live process holds the embedded data directory. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded data directory for this process, or throws naming the process that has it.
 * The lock file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dir: string, purpose: string): DataDirLock {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'actiondesk.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, purpose, since: new Date().toISOString() }));
      fs.closeSync(fd);
      return {
        release() {
          try {
            const held = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number };
            if (held.pid === process.pid) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: { pid?: number; purpose?: string } = {};
    try {
      holder = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // half-written by a process starting right now: look again
      continue;
    }
    if (typeof holder.pid === 'number' && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new DataDirInUseError(
        `The embedded database in ${dir} is in use by process ${holder.pid} (${holder.purpose ?? 'unknown'}). ` +
          'Stop that process first, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new DataDirInUseError(`Could not lock the embedded database in ${dir}; try again.`);
}
