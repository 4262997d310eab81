// A PostgreSQL server of the script's own (Debian's binaries, a fresh cluster in a temporary directory,
// on a free port of 127.0.0.1), which the script may stop and start at will without touching any other
// server. Run as root: the cluster belongs to the `postgres` system user.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres')))
    : [];
  const latest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!latest) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return path.join(base, latest, 'bin');
}

const asPostgres = (args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

export interface ScratchPostgres {
  url: string;
  port: number;
  /** Stops the server: `immediate` is a crash (no checkpoint, connections cut), `fast` a clean stop. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): void;
}

export function scratchPostgres(port: number, database = 'actiondesk'): ScratchPostgres {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-pg-'));
  const data = path.join(dir, 'data');
  fs.chmodSync(dir, 0o755);
  execFileSync('chown', ['postgres:postgres', dir]);
  asPostgres([
    path.join(bin, 'initdb'),
    '-D',
    data,
    '-U',
    'actiondesk',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
  ]);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200 -c fsync=on`;
  const ctlArgs = (args: string[]) => [
    '-u',
    'postgres',
    '--',
    path.join(bin, 'pg_ctl'),
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    ...args,
  ];
  const startArgs = ctlArgs(['-o', options, '-w', '-t', '60', 'start']);
  // Asynchronous, so that the load the script sends meanwhile is not held up.
  const ctl = async (args: string[]) => {
    await promisify(execFile)('runuser', args);
  };
  execFileSync('runuser', startArgs, { stdio: 'ignore' });
  asPostgres([
    path.join(bin, 'createdb'),
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-U',
    'actiondesk',
    database,
  ]);
  return {
    url: `postgres://actiondesk@127.0.0.1:${port}/${database}`,
    port,
    stop: (mode = 'immediate') => ctl(ctlArgs(['-m', mode, '-w', 'stop'])),
    start: () => ctl(startArgs),
    remove() {
      try {
        execFileSync('runuser', ctlArgs(['-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
