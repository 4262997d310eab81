import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './support/harness';
import { until } from './support/until';

// No Docker engine runs here: the Dockerfile's final stage is read instruction by instruction and its
// steps are done in a clean directory: the same files copied, the same `npm ci --omit=dev`, the same
// environment, then its CMD started and its HEALTHCHECK run. What the build stage makes (dist/) is
// what the suite's global setup built with the same `tsc -p tsconfig.build.json`.

const root = path.resolve(__dirname, '..');

interface Instruction {
  keyword: string;
  args: string;
}

/** The instructions of each stage of a Dockerfile (continuation lines joined, comments left out). */
function stagesOf(dockerfile: string): { name: string; instructions: Instruction[] }[] {
  const logical = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: { name: string; instructions: Instruction[] }[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: /\bAS\s+(\S+)$/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    }
    stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

/** An exec-form (JSON array) or shell-form command as argv. */
const argvOf = (args: string): string[] => (args.startsWith('[') ? JSON.parse(args) : ['sh', '-c', args]);

/**
 * Where the result of a RUN step is kept, as Docker keeps a layer: the step is done again only when
 * what it could see changed — the files copied into the image so far, its environment and its command.
 * (Installing the production dependencies, about 12 s of CPU, is otherwise this file's slowest step;
 * they are N-API and WebAssembly packages, the same on every Node version.)
 */
function cachedLayer(command: string, app: string, env: Record<string, string>): string {
  const hash = createHash('sha256').update(command).update(JSON.stringify(env));
  for (const name of fs.readdirSync(app).sort()) {
    const file = path.join(app, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
  return path.join(
    root,
    'node_modules/.cache/actiondesk-tests/image-layers',
    hash.digest('hex').slice(0, 16),
  );
}

/** Keeps what the step installed (node_modules) as its layer, and links it back into the image. */
function keepLayer(layer: string, app: string): void {
  fs.rmSync(path.dirname(layer), { recursive: true, force: true });
  fs.mkdirSync(layer, { recursive: true });
  fs.cpSync(path.join(app, 'node_modules'), path.join(layer, 'node_modules'), { recursive: true });
  fs.rmSync(path.join(app, 'node_modules'), { recursive: true, force: true });
  fs.symlinkSync(path.join(layer, 'node_modules'), path.join(app, 'node_modules'));
  fs.writeFileSync(path.join(layer, 'complete'), '');
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-image-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('when the Dockerfile’s final stage is carried out in a clean directory, then production dependencies alone start the service, which migrates its database, passes the HEALTHCHECK and stops cleanly on SIGTERM', async () => {
  const stages = stagesOf(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
  expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
  const runtime = stages[1]!.instructions;
  expect(runtime[0]).toEqual({ keyword: 'FROM', args: 'node:24-bookworm-slim AS runtime' });
  expect(runtime.find((i) => i.keyword === 'USER')?.args).toBe('node');

  const app = path.join(dir, 'app');
  const data = path.join(dir, 'data');
  fs.mkdirSync(app);
  fs.mkdirSync(data);
  const env: Record<string, string> = {};
  let cmd: string[] = [];
  let healthcheck: string[] = [];
  const done: string[] = [];
  for (const { keyword, args } of runtime) {
    switch (keyword) {
      case 'ENV':
        for (const m of args.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
        done.push(`ENV ${Object.keys(env).join(' ')}`);
        break;
      case 'COPY': {
        const from = /^--from=(\S+)\s+/.exec(args)?.[1];
        const parts = args.replace(/^--from=\S+\s+/, '').split(/\s+/);
        const target = parts.pop()!;
        for (const source of parts) {
          // The build stage's /app is this checkout, built by the suite's global setup.
          const origin =
            from === 'build' ? path.join(root, source.replace(/^\/app\//, '')) : path.join(root, source);
          const destination = target.endsWith('/')
            ? path.join(app, target, path.basename(source))
            : path.join(app, target);
          fs.cpSync(origin, destination, { recursive: true });
        }
        done.push(`COPY ${parts.join(' ')}`);
        break;
      }
      case 'RUN':
        // System packages and file ownership are the machine's own here; npm steps run as written.
        if (args.startsWith('npm ')) {
          const layer = cachedLayer(args, app, env);
          if (fs.existsSync(path.join(layer, 'complete'))) {
            fs.symlinkSync(path.join(layer, 'node_modules'), path.join(app, 'node_modules'));
          } else {
            const run = spawnSync('sh', ['-c', args], {
              cwd: app,
              encoding: 'utf8',
              env: { ...process.env, ...env },
            });
            expect({ step: args, status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({
              step: args,
              status: 0,
              stderr: '',
            });
            keepLayer(layer, app);
          }
          done.push(`RUN ${args}`);
        }
        break;
      case 'HEALTHCHECK':
        healthcheck = argvOf(args.replace(/^(--\S+\s+)*CMD\s+/, ''));
        break;
      case 'CMD':
        cmd = argvOf(args);
        break;
    }
  }
  expect(done).toEqual([
    'ENV NODE_ENV PORT DATA_DIR',
    'COPY package.json package-lock.json',
    'RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force',
    'COPY /app/dist',
    'COPY src/db/migrations',
  ]);
  // Production dependencies only: none of the tools of the build or the tests.
  for (const tool of ['typescript', 'jest', '@biomejs/biome', 'playwright-core', 'drizzle-kit'])
    expect(fs.existsSync(path.join(app, 'node_modules', tool))).toBe(false);
  expect(cmd).toEqual(['node', 'dist/src/server.js']);

  const port = await freePort();
  const runEnv = {
    PATH: process.env.PATH ?? '',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: data,
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  };
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: app, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => {
    output += String(c);
  });
  child.stderr.on('data', (c) => {
    output += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const healthy = () =>
      spawnSync(healthcheck[0]!, healthcheck.slice(1), { cwd: app, env: runEnv }).status === 0;
    // Waited for with a request from here (each HEALTHCHECK run starts a Node process), then the
    // image's own HEALTHCHECK must pass.
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`the service exited: ${output}`);
      return (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.status === 200;
    }, 120_000);
    expect(healthy()).toBe(true);
    // Its log goes to standard output (written asynchronously: it may follow the first answers).
    await until(() => output.includes('"msg":"ActionDesk listening'));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(healthy()).toBe(false);
    // The image's CLI works on the same data once the server has stopped (the embedded database's lock).
    const boot = execFileSync(
      'node',
      ['dist/src/cli/index.js', 'bootstrap', '--org', 'Image', '--email', 'a@image.test', '--json'],
      {
        cwd: app,
        env: runEnv,
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(boot)).toMatchObject({ apiKey: expect.stringMatching(/^adk_/) });
  } finally {
    child.kill('SIGKILL');
  }
}, 300_000);
