// npm run client:generate — writes packages/client/src/generated/ from the OpenAPI document the service
// builds from its routes (the one GET /api/v1/openapi.json serves), formatted by Biome.
// npm run client:check — generates into a temporary directory instead and fails, naming each file and its
// first differing lines, when packages/client/src/generated/ is stale against the document.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/platform/db/database';
import { ManualClock } from '../src/platform/kernel/clock';
import { projectRoot } from '../src/platform/kernel/paths';
import { createLogger } from '../src/platform/ops/logger';
import { createServices } from '../src/services';
import { generateClient } from './support/client-codegen';
import type { OpenApiDocument } from './support/client-operations';

const GENERATED = 'packages/client/src/generated';

/** A database that refuses every query: building the routes and their document runs none. */
function noDatabase(): Database {
  const refuse = () => {
    throw new Error('the OpenAPI document is built without a database: nothing may query it');
  };
  const known: Record<string, unknown> = { engine: 'postgresql', driver: 'pglite', db: {} };
  return new Proxy(known, {
    get: (target, name) => (typeof name === 'string' && Object.hasOwn(target, name) ? target[name] : refuse),
  }) as unknown as Database;
}

/**
 * The document of a service with the default configuration (what a production server serves, bar its
 * address): the environment of this process is not read, so every machine generates the same client.
 */
function serviceDocument(dataDir: string): OpenApiDocument {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const services = createServices(config, noDatabase(), clock, createLogger('silent'));
  const app = createApp(services);
  return (app.locals.openapiDocument as () => OpenApiDocument)();
}

/** `source` as `biome check --write` leaves it, for a file at `file` in the repository. */
function formatted(file: string, source: string): string {
  const biome = path.join(projectRoot, 'node_modules/@biomejs/biome/bin/biome');
  return execFileSync(process.execPath, [biome, 'check', '--write', `--stdin-file-path=${file}`], {
    cwd: projectRoot,
    input: source,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The hunks of `git diff` between the committed file and the one generated now (at most `most` lines). */
function differences(kept: string, fresh: string, most = 40): string[] {
  let diff = '';
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '--unified=1', kept, fresh], {
      encoding: 'utf8',
    });
  } catch (err) {
    // Exit status 1: the files differ, and stdout is the diff.
    diff = String((err as { stdout?: unknown }).stdout ?? '');
  }
  const hunks = diff.split('\n').filter((line) => /^[-+@ ]/.test(line) && !/^(---|\+\+\+) /.test(line));
  const shown = hunks.slice(0, most).map((line) => `  ${line}`);
  return hunks.length > most ? [...shown, `  … ${hunks.length - most} more lines`] : shown;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-client-'));
  try {
    const files = await generateClient(serviceDocument(dataDir));
    const target = path.join(projectRoot, GENERATED);
    const out = check ? path.join(dataDir, 'generated') : target;
    fs.mkdirSync(out, { recursive: true });
    for (const [name, source] of files)
      fs.writeFileSync(path.join(out, name), formatted(`${GENERATED}/${name}`, source));
    const existing = fs.existsSync(target) ? fs.readdirSync(target) : [];
    if (!check) {
      for (const name of existing) if (!files.has(name)) fs.rmSync(path.join(target, name));
      console.log(`${GENERATED}: ${files.size} files written`);
      return;
    }
    const problems: string[] = [];
    for (const name of new Set([...files.keys(), ...existing])) {
      const fresh = path.join(out, name);
      const kept = path.join(target, name);
      if (!fs.existsSync(kept)) problems.push(`${GENERATED}/${name}: missing`);
      else if (!files.has(name)) problems.push(`${GENERATED}/${name}: no longer generated`);
      else {
        if (fs.readFileSync(kept, 'utf8') !== fs.readFileSync(fresh, 'utf8'))
          problems.push(
            `${GENERATED}/${name} differs (- committed, + generated now):`,
            ...differences(kept, fresh),
          );
      }
    }
    if (problems.length) {
      console.error(
        `The client is stale against the OpenAPI document:\n${problems.join('\n')}\n` +
          'Run `npm run client:generate` and commit packages/client/src/generated/.',
      );
      process.exitCode = 1;
      return;
    }
    console.log(`${GENERATED} is up to date with the OpenAPI document`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  // The services keep timers and pools of a process that never serves: end it once the files are out.
  () => process.exit(),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
