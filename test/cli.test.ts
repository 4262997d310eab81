import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { systemClock } from '../src/platform/clock';
import { type Database, openDatabase } from '../src/platform/db/database';
import { createLogger } from '../src/platform/logger';

const root = path.resolve(__dirname, '..');

function run(command: string, args: string[], env: Record<string, string | undefined>) {
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const result = spawnSync(command, args, {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const cli = (args: string[], env: Record<string, string | undefined>) =>
  run('node', ['dist/src/cli/index.js', ...args], env);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function appOver(database: Database) {
  return createApp({
    config: loadConfig({}),
    database,
    clock: systemClock,
    logger: createLogger('silent'),
    jobs: { wake: () => undefined },
  });
}

describe('npm run cli -- bootstrap', () => {
  it('when run exactly as documented on a stopped embedded database, then it prints one JSON object whose key works', async () => {
    const out = run(
      'npm',
      ['run', '--silent', 'cli', '--', 'bootstrap', '--org', 'Acme', '--email', 'admin@acme.test', '--json'],
      {
        DATA_DIR: dir,
      },
    );
    expect(out.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    const result = JSON.parse(out.stdout);
    expect(Object.keys(result).sort()).toEqual(['apiKey', 'organisationId', 'portfolioId', 'userId']);
    expect(result.apiKey).toMatch(/^adk_/);

    const database = await openDatabase({
      kind: 'embedded',
      dataDir: path.join(dir, 'pgdata'),
      purpose: 'test',
    });
    try {
      const app = await appOver(database);
      const portfolios = await request(app).get('/api/v1/portfolios').set('x-api-key', result.apiKey);
      expect(portfolios.status).toBe(200);
      expect(portfolios.body.portfolios[0]).toMatchObject({ _id: result.portfolioId, isDefault: true });
      const users = await request(app).get('/api/v1/admin/users').set('x-api-key', result.apiKey);
      expect(users.body.users).toEqual([
        expect.objectContaining({ _id: result.userId, email: 'admin@acme.test', groups: ['administrator'] }),
      ]);
    } finally {
      await database.close();
    }
  });

  it('when a running server holds the embedded directory, then the CLI refuses with a clear message', async () => {
    const held = await openDatabase({
      kind: 'embedded',
      dataDir: path.join(dir, 'pgdata'),
      purpose: 'server on port 3000',
    });
    try {
      const out = cli(['bootstrap', '--org', 'Acme', '--email', 'admin@acme.test', '--json'], {
        DATA_DIR: dir,
      });
      expect(out.status).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toContain(`is in use by process ${process.pid} (server on port 3000)`);
    } finally {
      await held.close();
    }
  });

  it('when arguments are missing or wrong, then it exits 2 naming the option', () => {
    const out = cli(['bootstrap', '--org', 'Acme', '--email', 'nope'], { DATA_DIR: dir });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--email must be an e-mail address');
    const bad = cli(['bootstrap', '--org', 'Acme', '--email', 'a@b.test'], { DATA_DIR: dir, PORT: 'x' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('PORT: ');
  });

  // Registered only on the server run of the suite (CI runs both); the embedded run covers the case above.
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl)
    it('when DATABASE_URL names a server, then bootstrap and seed work there', async () => {
      const out = cli(['bootstrap', '--org', 'Server Org', '--email', 'ops@server.test', '--json'], {
        DATABASE_URL: serverUrl,
      });
      expect(out.status).toBe(0);
      const result = JSON.parse(out.stdout);
      const seeded = cli(['seed', '--org', result.organisationId, '--contacts', '25'], {
        DATABASE_URL: serverUrl,
      });
      expect(seeded.status).toBe(0);
      const database = await openDatabase({ kind: 'server', url: serverUrl, poolSize: 1 });
      try {
        const res = await request(await appOver(database))
          .get('/api/v1/customers?limit=1')
          .set('x-api-key', result.apiKey);
        expect(res.body.total).toBe(25);
      } finally {
        await database.close();
      }
    });
});

describe('npm run cli -- seed', () => {
  it('when asked for N contacts, then N realistic contacts are added with progress on stderr', async () => {
    const boot = JSON.parse(
      cli(['bootstrap', '--org', 'Seeded', '--email', 'a@seed.test', '--json'], { DATA_DIR: dir }).stdout,
    );
    const out = cli(['seed', '--org', boot.organisationId, '--contacts', '1500'], { DATA_DIR: dir });
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      'Added 3 question lists (klantenprofiel, beleggersprofiel, tevredenheidsenquete)\n' +
        `Added 1500 contacts to portfolio ${boot.portfolioId}\n`,
    );
    expect(out.stderr).toContain('1500/1500');
    const database = await openDatabase({
      kind: 'embedded',
      dataDir: path.join(dir, 'pgdata'),
      purpose: 'test',
    });
    try {
      const res = await request(await appOver(database))
        .get('/api/v1/customers?limit=100')
        .set('x-api-key', boot.apiKey);
      expect(res.body.total).toBe(1500);
      const lists = await request(await appOver(database))
        .get('/api/v1/questionlists')
        .set('x-api-key', boot.apiKey);
      expect(lists.body.map((l: { slug: string }) => l.slug).sort()).toEqual([
        'beleggersprofiel',
        'klantenprofiel',
        'tevredenheidsenquete',
      ]);
      expect(lists.body.filter((l: { hasReportSpec: boolean }) => l.hasReportSpec)).toHaveLength(2);
      expect(
        lists.body.every((l: { supportedLanguages: string[] }) => l.supportedLanguages.join() === 'nl,fr,en'),
      ).toBe(true);
      for (const c of res.body.customers) {
        expect(c.data).toEqual(
          expect.objectContaining({
            Voornaam: expect.any(String),
            Achternaam: expect.any(String),
            Email: expect.stringMatching(/@example\.be$/),
          }),
        );
      }
    } finally {
      await database.close();
    }
  });

  it('when run again without --contacts, then it adds no template twice', () => {
    const boot = JSON.parse(
      cli(['bootstrap', '--org', 'Twice', '--email', 't@seed.test', '--json'], { DATA_DIR: dir }).stdout,
    );
    expect(cli(['seed', '--org', boot.organisationId], { DATA_DIR: dir }).stdout).toMatch(
      /^Added 3 question lists/,
    );
    const again = cli(['seed', '--org', boot.organisationId], { DATA_DIR: dir });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(
      'Added 0 question lists; already present: klantenprofiel, beleggersprofiel, tevredenheidsenquete\n',
    );
  });

  it('when the organisation does not exist, then it exits 1 saying so', () => {
    cli(['bootstrap', '--org', 'X', '--email', 'x@x.test', '--json'], { DATA_DIR: dir });
    const out = cli(['seed', '--org', '01900000-0000-7000-8000-000000000000', '--contacts', '5'], {
      DATA_DIR: dir,
    });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Organisation 01900000-0000-7000-8000-000000000000 not found');
  });
});

describe('server start', () => {
  it('when a configuration value is bad, then the server does not start and names the variable', () => {
    const out = run('node', ['dist/src/server.js'], { DATA_DIR: dir, PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Invalid configuration');
    expect(out.stderr).toContain('PORT: must be a whole number');
    expect(out.stderr).toContain('LOG_LEVEL: ');
  });

  it('when the embedded directory is held by another process, then the server refuses to start', async () => {
    const held = await openDatabase({
      kind: 'embedded',
      dataDir: path.join(dir, 'pgdata'),
      purpose: 'cli seed',
    });
    try {
      const out = run('node', ['dist/src/server.js'], { DATA_DIR: dir, PORT: '0' });
      expect(out.status).toBe(1);
      expect(out.stderr).toContain(`is in use by process ${process.pid} (cli seed)`);
    } finally {
      await held.close();
    }
  });
});
