// Debian's PgBouncer in transaction pooling mode in front of a PostgreSQL server, on a free port of
// 127.0.0.1, run as the `postgres` system user (it refuses to run as root).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function startPgBouncer(opts: {
  port: number;
  serverPort: number;
  database: string;
  /** Server connections per database and user: fewer than the clients', which share them. */
  poolSize: number;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-pgbouncer-'));
  fs.writeFileSync(path.join(dir, 'userlist.txt'), '"actiondesk_app" ""\n');
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${opts.database} = host=127.0.0.1 port=${opts.serverPort} dbname=${opts.database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${opts.port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${opts.poolSize}`,
      'max_client_conn = 1000',
      'ignore_startup_parameters = extra_float_digits',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const child: ChildProcess = spawn(
    'runuser',
    ['-u', 'postgres', '--', 'pgbouncer', path.join(dir, 'pgbouncer.ini')],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(opts.port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 100 || child.exitCode !== null) throw new Error('PgBouncer did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `postgres://actiondesk_app@127.0.0.1:${opts.port}/${opts.database}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
