// Helpers shared by the bench scripts: start a built script on a free port, stop it, print a table.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A benchmark's load comes from one key and one address far above the service's limits: the limits
 * are raised so that every request is served (each one still counts in the shared store, as always).
 */
const unlimited = {
  RATE_LIMIT_API_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
};

export async function start(
  script: string,
  env: Record<string, string>,
  ready: (port: number) => Promise<boolean>,
  nodeArgs: string[] = [],
) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...unlimited, ...env, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    if (await ready(port)) return { child, port };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${script} did not start`);
}

export const answers = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers })
    .then((r) => r.ok)
    .catch(() => false);

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The `p`th percentile of `values` (sorted ascending), by nearest rank, in their unit; 0 for none. */
export function percentile(values: number[], p: number): number {
  return values[Math.max(0, Math.ceil((p / 100) * values.length) - 1)] ?? 0;
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Prints rows as a Markdown table under `head`. */
export function printTable(head: string[], rows: string[][]): void {
  const table = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((v, c) => v.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by a process (user + system), from /proc; 0 where /proc is missing. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every PostgreSQL server process on this machine. */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!/\((postgres|postmaster)\)/.test(stat)) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}
