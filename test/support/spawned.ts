import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { until } from './until';

// The real server and CLI as built (dist/), run as child processes: for what only a whole process
// shows (signals, exits, several instances on one database).

const root = path.resolve(__dirname, '../..');
export const serverEntry = path.join(root, 'dist/src/server.js');
export const cliEntry = path.join(root, 'dist/src/cli/index.js');

export interface Spawned {
  child: ChildProcess;
  port: number;
  base: string;
  /** The JSON log lines written so far (stdout). */
  logs: Record<string, unknown>[];
  /** Resolves with the exit code once the process has ended. */
  exit: Promise<number | null>;
}

/**
 * Gives an embedded DATA_DIR without a database a copy of the migrated one the global setup made, so a
 * process starts in a second instead of creating and migrating it. A test of that first start uses a
 * DATA_DIR of its own and does not call this.
 */
export function seedDataDir(dataDir: string): void {
  const template = process.env.ACTIONDESK_TEST_PGDATA;
  const target = path.join(dataDir, 'pgdata');
  if (template && !fs.existsSync(target)) fs.cpSync(template, target, { recursive: true });
}

/**
 * Runs processes in one DATA_DIR on one database (the embedded one when `databaseUrl` is empty, seeded
 * with the migrated template).
 */
export function processes(opts: { dataDir: string; databaseUrl: string }) {
  if (!opts.databaseUrl) seedDataDir(opts.dataDir);
  const running = new Set<ChildProcess>();
  const env = (extra: Record<string, string>) => ({
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: opts.dataDir,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SMTP_URL: '',
    // No load balancer to drain from: a test that wants the drain sets it.
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...extra,
  });
  return {
    /** Starts the server on `port` and resolves once its /health answers 200. */
    async server(port: number, extra: Record<string, string> = {}): Promise<Spawned> {
      const child = spawn(process.execPath, [serverEntry], {
        env: env({ PORT: String(port), HOST: '127.0.0.1', ...extra }),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      running.add(child);
      const logs: Record<string, unknown>[] = [];
      let rest = '';
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) logs.push(JSON.parse(line));
      });
      const exit = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => {
          running.delete(child);
          resolve(code);
        }),
      );
      const base = `http://127.0.0.1:${port}`;
      await until(async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        const res = await fetch(`${base}/health`).catch(() => undefined);
        return res?.status === 200;
      }, 120_000);
      return { child, port, base, logs, exit };
    },
    /** Runs a CLI command to its end. */
    cli(args: string[], extra: Record<string, string> = {}) {
      return spawnSync(process.execPath, [cliEntry, ...args], { env: env(extra), encoding: 'utf8' });
    },
    /** Kills whatever is still running (SIGKILL): for afterAll. */
    killAll() {
      for (const child of running) child.kill('SIGKILL');
    },
  };
}
