import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../src/app';
import { runCli } from '../src/cli/run';
import { loadConfig } from '../src/config';
import type { Database } from '../src/platform/db/database';
import { openDatabase } from '../src/platform/db/open';
import { systemClock } from '../src/platform/kernel/clock';
import { createLogger } from '../src/platform/ops/logger';
import { createServices } from '../src/services';

// Most cases call the CLI's command logic in-process (runCli); a few spawn the built entry points to
// prove what only a real process shows: npm's documented command line, exit codes, the lock between
// processes, and the .env file.

const root = path.resolve(__dirname, '..');
const cliEntry = path.join(root, 'dist/src/cli/index.js');
const serverEntry = path.join(root, 'dist/src/server.js');

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns a process with the test's environment minus the variables a case sets itself. DATABASE_URL
 * is set empty (a real variable, so a developer's .env cannot fill it in; empty means unset).
 */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  unset: string[] = [],
  timeout = 120_000,
): Outcome {
  const base = { ...process.env };
  for (const name of unset) delete base[name];
  const result = spawnSync(command, args, {
    cwd,
    env: { ...base, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const spawnCli = (args: string[], env: Record<string, string>, cwd = dir) =>
  run(process.execPath, [cliEntry, ...args], env, cwd);
// Every server case expects a refusal; one that starts instead is stopped (and fails) after 90 s.
const serverTimeout = 90_000;
const spawnServer = (env: Record<string, string>, cwd = dir) =>
  run(process.execPath, [serverEntry], env, cwd, [], serverTimeout);

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** The CLI in this process, with only the environment given. */
async function cli(args: string[], env: Record<string, string>, input = ''): Promise<Outcome> {
  const stdout = sink();
  const stderr = sink();
  const status = await runCli(args, {
    env: { ...env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([input]),
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

// One embedded data directory for the whole file (each case arranges its own organisation), so that the
// database is created and migrated once: by the first case, through the documented command. `dir` is a
// fresh, empty directory per case.
let shared: string;
let dir: string;
beforeAll(() => {
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-cli-shared-'));
});
afterAll(() => fs.rmSync(shared, { recursive: true, force: true }));
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const openShared = (purpose: string) =>
  openDatabase({ kind: 'embedded', dataDir: path.join(shared, 'pgdata'), purpose });

async function appOver(database: Database) {
  return createApp(createServices(loadConfig({}), database, systemClock, createLogger('silent')));
}

describe('npm run cli -- bootstrap', () => {
  it('when run exactly as documented on a new embedded data directory, then it creates the database and prints one JSON object whose key works', async () => {
    // This case must stay the first of the file: it is the one that finds the shared directory empty.
    expect(fs.readdirSync(shared)).toEqual([]);
    const out = run(
      'npm',
      ['run', '--silent', 'cli', '--', 'bootstrap', '--org', 'Acme', '--email', 'admin@acme.test', '--json'],
      { DATA_DIR: shared },
      root,
    );
    expect(out.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    const result = JSON.parse(out.stdout);
    expect(Object.keys(result).sort()).toEqual(['apiKey', 'organisationId', 'portfolioId', 'userId']);
    expect(result.apiKey).toMatch(/^adk_/);

    const database = await openShared('test');
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

  it('when a running server holds the embedded directory, then the CLI process refuses with a clear message and exit code 1', async () => {
    const held = await openShared('server on port 3000');
    try {
      const out = spawnCli(['bootstrap', '--org', 'Acme', '--email', 'admin@acme.test', '--json'], {
        DATA_DIR: shared,
      });
      expect(out.status).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toContain(`is in use by process ${process.pid} (server on port 3000)`);
    } finally {
      await held.close();
    }
  });

  it('when the CLI process is given a wrong argument, then it exits 2 with the message and the usage on stderr', () => {
    const out = spawnCli(['bootstrap', '--org', 'Acme', '--email', 'nope'], { DATA_DIR: dir });
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('actiondesk: bootstrap: --email must be an e-mail address');
    expect(out.stderr).toContain('Usage: npm run cli -- <command> [options]');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when arguments are missing or wrong, then it exits 2 naming the option', async () => {
    const out = await cli(['bootstrap', '--org', 'Acme', '--email', 'nope'], { DATA_DIR: dir });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--email must be an e-mail address');
    const noOrg = await cli(['bootstrap', '--email', 'a@b.test'], { DATA_DIR: dir });
    expect(noOrg.status).toBe(2);
    expect(noOrg.stderr).toContain('--org <name> is required');
    const bad = await cli(['bootstrap', '--org', 'Acme', '--email', 'a@b.test'], {
      DATA_DIR: dir,
      PORT: 'x',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('PORT: ');
    const unknown = await cli(['frobnicate'], { DATA_DIR: dir });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown command 'frobnicate'");
    // None of these got as far as creating a database.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when run without a command, then it prints the usage and exits 0', async () => {
    const out = await cli([], { DATA_DIR: dir });
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('bootstrap --org <name> --email <admin e-mail>');
    expect(out.stdout).toContain('seed --org <organisationId> [--contacts <N>]');
    expect(out.stderr).toBe('');
  });

  it('when run without --json, then it prints the ids and the key once, labelled', async () => {
    const out = await cli(['bootstrap', '--org', 'Plain', '--email', 'p@plain.test'], { DATA_DIR: shared });
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(
      /^Organisation {2}\S+\nAdministrator \S+\nPortfolio {5}\S+\nAPI key {7}adk_\S+\n\nThe API key is shown only now/,
    );
  });

  // Registered only on the server run of the suite (CI runs both); the embedded run covers the case above.
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl)
    it('when DATABASE_URL names a server, then bootstrap and seed work there', async () => {
      const out = await cli(['bootstrap', '--org', 'Server Org', '--email', 'ops@server.test', '--json'], {
        DATABASE_URL: serverUrl,
      });
      expect(out.status).toBe(0);
      const result = JSON.parse(out.stdout);
      const seeded = await cli(['seed', '--org', result.organisationId, '--contacts', '25'], {
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
    const booted = await cli(['bootstrap', '--org', 'Seeded', '--email', 'a@seed.test', '--json'], {
      DATA_DIR: shared,
    });
    expect(booted.status).toBe(0);
    const boot = JSON.parse(booted.stdout);
    const out = await cli(['seed', '--org', boot.organisationId, '--contacts', '1500'], { DATA_DIR: shared });
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      'Added 3 question lists (klantenprofiel, beleggersprofiel, tevredenheidsenquete)\n' +
        `Added 1500 contacts to portfolio ${boot.portfolioId}\n`,
    );
    expect(out.stderr).toContain('1500/1500');
    const database = await openShared('test');
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

  it('when run again without --contacts, then it adds no template twice', async () => {
    const boot = JSON.parse(
      (await cli(['bootstrap', '--org', 'Twice', '--email', 't@seed.test', '--json'], { DATA_DIR: shared }))
        .stdout,
    );
    expect((await cli(['seed', '--org', boot.organisationId], { DATA_DIR: shared })).stdout).toMatch(
      /^Added 3 question lists/,
    );
    const again = await cli(['seed', '--org', boot.organisationId], { DATA_DIR: shared });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(
      'Added 0 question lists; already present: klantenprofiel, beleggersprofiel, tevredenheidsenquete\n',
    );
  });

  it('when the organisation does not exist, then it exits 1 saying so', async () => {
    const out = await cli(['seed', '--org', '01900000-0000-7000-8000-000000000000', '--contacts', '5'], {
      DATA_DIR: shared,
    });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Organisation 01900000-0000-7000-8000-000000000000 not found');
  });

  it('when --org or --contacts is not valid, then it exits 2 naming the option', async () => {
    const noOrg = await cli(['seed', '--org', 'acme'], { DATA_DIR: dir });
    expect(noOrg.status).toBe(2);
    expect(noOrg.stderr).toContain('seed: --org <organisationId> is required (an id)');
    const zero = await cli(['seed', '--org', '01900000-0000-7000-8000-000000000000', '--contacts', '0'], {
      DATA_DIR: dir,
    });
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('seed: --contacts must be a whole number from 1 to 10000000');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('npm run cli -- user', () => {
  it('when an operator sets a staff password from standard input, then the user can sign in with it; a link is queued for another; mistakes are named', async () => {
    const env = { DATA_DIR: shared };
    const boot = await cli(['bootstrap', '--org', 'Passwords', '--email', 'boss@pw.test', '--json'], env);
    expect(boot.status).toBe(0);
    const { organisationId } = JSON.parse(boot.stdout);
    const set = await cli(
      ['user', 'set-password', '--org', organisationId, '--email', 'BOSS@pw.test'],
      env,
      'a long operator passphrase\nignored second line\n',
    );
    expect(set).toMatchObject({ status: 0, stdout: 'Password set for BOSS@pw.test\n' });
    const link = await cli(
      ['user', 'password-link', '--org', organisationId, '--email', 'boss@pw.test'],
      env,
    );
    expect(link.status).toBe(0);
    expect(link.stdout).toMatch(/^Link for boss@pw.test queued; it works until \d{4}-\d\d-\d\dT/);
    const unknown = await cli(
      ['user', 'set-password', '--org', organisationId, '--email', 'no@pw.test'],
      env,
      'x'.repeat(20),
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user with the e-mail no@pw.test');
    const empty = await cli(
      ['user', 'set-password', '--org', organisationId, '--email', 'boss@pw.test'],
      env,
      '',
    );
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('give the password on standard input');
    const weak = await cli(
      ['user', 'set-password', '--org', organisationId, '--email', 'boss@pw.test'],
      env,
      'short\n',
    );
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('password: must be at least 12 characters');

    const database = await openShared('test');
    try {
      const agent = request.agent(await appOver(database));
      const page = await agent.get('/signin');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const signIn = await agent
        .post('/signin')
        .type('form')
        .send({ _csrf: csrf, email: 'boss@pw.test', password: 'a long operator passphrase' });
      expect(signIn.status).toBe(303);
      expect((await agent.get('/staff')).text).toContain('Welcome,');
    } finally {
      await database.close();
    }
  });
});

describe('npm run cli -- org', () => {
  it('when an operator switches password sign-in, then on works, off without a sign-in provider is refused, and a missing switch is named', async () => {
    const env = { DATA_DIR: shared };
    const boot = await cli(['bootstrap', '--org', 'Glass', '--email', 'glass@pw.test', '--json'], env);
    const { organisationId } = JSON.parse(boot.stdout);
    const off = await cli(['org', 'password-sign-in', '--org', organisationId, '--off'], env);
    expect(off.status).toBe(1);
    expect(off.stderr).toContain('Enable a sign-in provider first');
    const on = await cli(['org', 'password-sign-in', '--org', organisationId, '--on'], env);
    expect(on).toMatchObject({ status: 0, stdout: `Password sign-in is on for ${organisationId}\n` });
    const neither = await cli(['org', 'password-sign-in', '--org', organisationId], env);
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain('org password-sign-in: give --on or --off');
  });
});

describe('npm run cli -- org export and org delete', () => {
  it('when an operator exports then deletes an organisation, then the export holds its rows and the deletion asks for its name', async () => {
    const env = { DATA_DIR: shared };
    const boot = await cli(['bootstrap', '--org', 'Farewell', '--email', 'bye@farewell.test', '--json'], env);
    const { organisationId } = JSON.parse(boot.stdout);
    const target = path.join(dir, 'export');
    const exported = await cli(['org', 'export', '--org', organisationId, '--out', target], env);
    expect(exported.status).toBe(0);
    expect(exported.stdout).toMatch(
      new RegExp(
        `^Exported Farewell \\(${organisationId}\\) to ${target}: \\d+ rows in 23 tables, 0 files \\(0 bytes\\)\n$`,
      ),
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(target, 'manifest.json'), 'utf8'));
    expect(manifest.tables).toMatchObject({ organisations: 1, users: 1, api_keys: 1, portfolios: 1 });

    const noName = await cli(['org', 'delete', '--org', organisationId], env);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toContain('org delete: --confirm <organisation name> is required');
    const gone = await cli(['org', 'delete', '--org', organisationId, '--confirm', 'Farewell'], env);
    expect(gone.status).toBe(0);
    expect(gone.stdout).toMatch(
      /^Deleted Farewell \(.+\): 0 customers, 0 session_requests, 0 sessions, 0 files, 1 users, \d+ audit_events; 0 stored files removed\n$/,
    );
    const again = await cli(['org', 'delete', '--org', organisationId, '--confirm', 'Farewell'], env);
    expect(again).toMatchObject({ status: 1, stderr: `actiondesk: no organisation ${organisationId}\n` });
  });
});

describe('npm run cli -- oauth-client', () => {
  it('when an operator registers a client as documented, then stdout is exactly the id and the secret, and the client is listed', async () => {
    const env = { DATA_DIR: shared };
    const boot = await cli(
      ['bootstrap', '--org', 'Partners', '--email', 'boss@partners.test', '--json'],
      env,
    );
    const { organisationId, apiKey } = JSON.parse(boot.stdout);
    const made = await cli(
      [
        'oauth-client',
        'create',
        '--org',
        organisationId,
        '--name',
        'Partner',
        '--scopes',
        'read create',
        '--grants',
        'client_credentials',
        '--json',
      ],
      env,
    );
    expect(made.status).toBe(0);
    const out = JSON.parse(made.stdout);
    expect(Object.keys(out).sort()).toEqual(['clientId', 'clientSecret']);
    expect(out.clientSecret).toMatch(/^adcs_/);
    const bad = await cli(
      [
        'oauth-client',
        'create',
        '--org',
        organisationId,
        '--name',
        'X',
        '--scopes',
        'write',
        '--grants',
        'client_credentials',
      ],
      env,
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('scopes[0]');
    const database = await openShared('test');
    try {
      const list = await request(await appOver(database))
        .get('/api/v1/admin/oauth/clients')
        .set('x-api-key', apiKey);
      expect(list.body.clients).toEqual([
        expect.objectContaining({ clientId: out.clientId, name: 'Partner', scopes: ['read', 'create'] }),
      ]);
    } finally {
      await database.close();
    }
  });
});

describe('server start', () => {
  it('when a configuration value is bad, then the server does not start and names the variable', () => {
    const out = spawnServer({ DATA_DIR: dir, PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Invalid configuration');
    expect(out.stderr).toContain('PORT: must be a whole number');
    expect(out.stderr).toContain('LOG_LEVEL: ');
  });

  it('when the embedded directory is held by another process, then the server refuses to start', async () => {
    const held = await openShared('cli seed');
    try {
      const out = spawnServer({ DATA_DIR: shared, PORT: '0' });
      expect(out.status).toBe(1);
      expect(out.stderr).toContain(`is in use by process ${process.pid} (cli seed)`);
    } finally {
      await held.close();
    }
  });
});

describe('.env in the working directory', () => {
  it('when a .env file is present, then the server and the CLI read it, and a real environment variable wins over it', async () => {
    // The file names the data directory (held here, so both processes stop at the lock and say which
    // directory they tried) and a PORT that would fail validation if the file's value were used.
    fs.writeFileSync(path.join(dir, '.env'), `# test\nDATA_DIR=${shared}\nPORT=eighty\nLOG_LEVEL=silent\n`);
    const held = await openShared('dotenv test');
    try {
      const inUse = `The embedded database in ${shared} is in use by process ${process.pid} (dotenv test)`;
      const unset = ['DATA_DIR', 'PORT', 'LOG_LEVEL'];

      const server = run(process.execPath, [serverEntry], { PORT: '0' }, dir, unset, serverTimeout);
      expect(server.status).toBe(1);
      expect(server.stderr).toContain(inUse);
      expect(server.stderr).not.toContain('Invalid configuration');

      const args = [cliEntry, 'bootstrap', '--org', 'Dotenv', '--email', 'd@dotenv.test'];
      const cliRun = run(process.execPath, args, { PORT: '0' }, dir, unset);
      expect(cliRun.status).toBe(1);
      expect(cliRun.stderr).toContain(inUse);

      // Without the real PORT, the file's value is the one validated.
      const fromFile = run(process.execPath, args, {}, dir, unset);
      expect(fromFile.status).toBe(2);
      expect(fromFile.stderr).toContain('PORT: must be a whole number');
    } finally {
      await held.close();
    }
  });
});
