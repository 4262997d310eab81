// What the failure and scale scripts share: the built server and CLI as child processes, an
// organisation with a template and contacts, bounded request loops that record every answer.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../bench-support';

export const serverEntry = path.join(root, 'dist/src/server.js');
export const cliEntry = path.join(root, 'dist/src/cli/index.js');

/** The limits are far above what one key and one address send here, so every request is served. */
export const unlimited = {
  RATE_LIMIT_API_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
};

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  exit: Promise<number | null>;
}

/** Starts the server; resolves once its /health answers 200. */
export async function startInstance(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<Instance> {
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...process.env, ...unlimited, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} while starting`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return { name, port, child, exit };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends SIGTERM and waits for the exit code. */
export async function stopInstance(instance: Instance): Promise<number | null> {
  if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
  return instance.exit;
}

/** An organisation made with the CLI; answers its API key. */
export function bootstrap(env: Record<string, string>): string {
  const out = spawnSync(
    process.execPath,
    [cliEntry, 'bootstrap', '--org', 'Load test', '--email', 'admin@load.test', '--json'],
    { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (out.status !== 0) throw new Error(`bootstrap failed: ${out.stderr}`);
  return (JSON.parse(out.stdout) as { apiKey: string }).apiKey;
}

export interface Answer {
  kind: string;
  startedAt: number;
  ms: number;
  /** The HTTP status, or 0 when no answer came (connection failed, or 10 s passed: a hang). */
  status: number;
  body: Record<string, unknown> | null;
}

/** One request, bounded by 10 s; never throws. */
export async function call(
  base: string,
  key: string,
  kind: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<Answer> {
  const startedAt = Date.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    return { kind, startedAt, ms: Date.now() - startedAt, status: res.status, body: parsed };
  } catch {
    return { kind, startedAt, ms: Date.now() - startedAt, status: 0, body: null };
  }
}

/** A questionnaire template with one question; answers its id. */
export async function createTemplate(base: string, key: string): Promise<string> {
  const res = await call(base, key, 'setup', 'POST', '/api/v1/questionlists', {
    name: 'Load test intake',
    supportedLanguages: ['nl'],
    sections: [
      {
        id: 's',
        title: { nl: 'Vraag' },
        questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' }, required: true }],
      },
    ],
  });
  if (res.status !== 201) throw new Error(`template: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?._id as string;
}

/** `count` contacts with e-mail addresses n@load.test, made `concurrency` at a time; answers their ids. */
export async function createContacts(
  base: string,
  key: string,
  count: number,
  concurrency = 8,
): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        const res = await call(base, key, 'setup', 'POST', '/api/v1/customers', {
          thirdpartyId: `LOAD-${n}`,
          data: { Voornaam: `Contact ${n}`, Email: `contact${n}@load.test` },
        });
        if (res.status !== 201) throw new Error(`contact ${n}: ${res.status} ${JSON.stringify(res.body)}`);
        ids[n] = res.body?._id as string;
      }
    }),
  );
  return ids;
}

/** Counts of answers by status, as `{ "201": 120, "503": 40 }` (0: no answer). */
export const byStatus = (answers: Answer[]) =>
  Object.fromEntries(
    [...new Set(answers.map((a) => a.status))]
      .sort((a, b) => a - b)
      .map((s) => [String(s), answers.filter((a) => a.status === s).length]),
  );

/**
 * Runs a check script's `main`, which collects problems instead of throwing: prints them (the first 20),
 * the one-line verdict, and exits 0 when there were none, 1 otherwise or when `main` throws.
 */
export function runCheck(main: (problems: string[]) => Promise<void>): void {
  const problems: string[] = [];
  main(problems).then(
    () => {
      for (const p of problems.slice(0, 20)) console.error(`FAIL ${p}`);
      if (problems.length > 20) console.error(`… and ${problems.length - 20} more`);
      console.log(problems.length === 0 ? '1 passed, 0 failed' : '0 passed, 1 failed');
      process.exit(problems.length === 0 ? 0 : 1);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
