import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { runCli } from '../src/cli/run';
import { type Database, queryRows } from '../src/platform/db/database';
import { openDatabase } from '../src/platform/db/open';
import { asBuffer } from './support/binary';
import {
  completeAsContact,
  createContact,
  createInvitedAction,
  createOrg,
  createTemplate,
  createWebhook,
  type TestOrg,
  tenantRows,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { serverDatabases } from './support/server-databases';
import { seedDataDir } from './support/spawned';

// The move from the embedded database to a server (docs/operations.md#moving-to-a-server): the source
// is always an embedded data directory; the target is a new database on the PostgreSQL server when the
// suite runs against one (DATABASE_URL), else another embedded data directory.
const serverUrl = process.env.DATABASE_URL;

async function cli(args: string[], env: Record<string, string>) {
  const chunks = { out: [] as string[], err: [] as string[] };
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _enc, done) {
        into.push(String(chunk));
        done();
      },
    });
  const status = await runCli(args, { env, stdout: sink(chunks.out), stderr: sink(chunks.err) });
  return { status, stdout: chunks.out.join(''), stderr: chunks.err.join('') };
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n% moving\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

interface Before {
  contact: unknown;
  action: unknown;
  fileUrl: string;
  code: string;
  jobs: number;
  deliveries: number;
  audit: number;
  events: number;
}

let dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `actiondesk-${name}-`));
  dirs.push(dir);
  return dir;
};
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A new, empty target: a fresh migrated database on the server, or a new embedded data directory. */
async function newTarget(): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  const dataDir = tempDir('target');
  if (!serverUrl) {
    seedDataDir(dataDir);
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'embedded', dataDir: path.join(dataDir, 'pgdata'), purpose: 'test' }),
    };
  }
  const copy = await serverDatabases(serverUrl).copy();
  drops.push(copy.drop);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: copy.url },
    open: () => openDatabase({ kind: 'server', url: copy.url, poolSize: 2 }),
  };
}

let source: string;
let out: string;
let org: TestOrg;
let before: Before;

const count = async (h: Harness, o: TestOrg, table: string) => {
  const [row] = await tenantRows<{ n: string }>(
    h,
    o.organisationId,
    sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`,
  );
  return Number(row?.n);
};

beforeAll(async () => {
  source = tempDir('source');
  seedDataDir(source);
  const database = await openDatabase({
    kind: 'embedded',
    dataDir: path.join(source, 'pgdata'),
    purpose: 'test',
  });
  const h = await startHarness(
    { DATA_DIR: source, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' },
    { database },
  );
  try {
    org = await createOrg(h, 'Kantoor Verhuis');
    await createOrg(h, 'Kantoor Ander');
    await createWebhook(h, org, 'http://127.0.0.1:9/hook', ['sessionrequest.completed']);
    const contactId = await createContact(h, org, { Voornaam: 'Mira', Email: 'mira@example.test' });
    const template = await createTemplate(h, org);
    const actionId = await createInvitedAction(h, org, contactId, template);
    await h.jobs.drain();
    await completeAsContact(h, org.organisationId, actionId);
    const file = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', PDF, 'move.pdf');
    expect(file.status).toBe(201);
    const [code] = await tenantRows<{ code: string }>(
      h,
      org.organisationId,
      sql`SELECT code FROM session_requests WHERE id = ${actionId}`,
    );
    before = {
      contact: (await h.api().get(`/api/v1/customers/${contactId}`).set('x-api-key', org.adminKey)).body,
      action: (await h.api().get(`/api/v1/sessionrequests/${actionId}`).set('x-api-key', org.adminKey)).body,
      fileUrl: file.body.fileUrl,
      code: code!.code,
      jobs: await count(h, org, 'jobs'),
      deliveries: await count(h, org, 'webhook_deliveries'),
      audit: await count(h, org, 'audit_events'),
      events: await count(h, org, 'events'),
    };
    expect(before.deliveries).toBeGreaterThan(0);
  } finally {
    await h.close();
    await database.close();
  }
  out = path.join(tempDir('export'), 'out');
  const exported = await cli(['export', '--out', out], { DATA_DIR: source });
  expect(exported).toMatchObject({ status: 0, stderr: '' });
  expect(exported.stdout).toMatch(/^Exported \d+ rows in \d+ tables and 1 files \(\d+ bytes\) to /);
});

describe('cli export and cli import', () => {
  it('when an embedded database is imported into a new one, then keys, links, files, actions and syncs work there as before, and nothing is sent again', async () => {
    const target = await newTarget();
    // The sealed secrets need the same key: the embedded key file, or ENCRYPTION_KEYS (documented).
    fs.copyFileSync(path.join(source, 'encryption.key'), path.join(target.env.DATA_DIR!, 'encryption.key'));
    const imported = await cli(['import', '--from', out], target.env);
    expect(imported).toMatchObject({ status: 0, stderr: '' });
    expect(imported.stdout).toMatch(/^Imported \d+ rows in \d+ tables and 1 files \(\d+ bytes\)/);

    const database = await target.open();
    const h = await startHarness(target.env, { database });
    try {
      const contactId = (before.contact as { _id: string })._id;
      const contact = await h.api().get(`/api/v1/customers/${contactId}`).set('x-api-key', org.adminKey);
      expect(contact.status).toBe(200);
      expect(contact.body).toEqual(before.contact);
      const actionId = (before.action as { _id: string })._id;
      const action = await h.api().get(`/api/v1/sessionrequests/${actionId}`).set('x-api-key', org.adminKey);
      expect(action.body).toEqual(before.action);

      const download = await asBuffer(h.api().get(before.fileUrl).set('x-api-key', org.adminKey));
      expect(download.status).toBe(200);
      expect(
        createHash('sha256')
          .update(download.body as Buffer)
          .digest('hex'),
      ).toBe(createHash('sha256').update(PDF).digest('hex'));

      // The contact's link is found before any organisation is known (credential_keys came along).
      const [found] = await queryRows<{ organisation_id: string }>(
        h.database.db,
        sql`SELECT organisation_id FROM actiondesk_find_action(${before.code})`,
      );
      expect(found?.organisation_id).toBe(org.organisationId);

      // Nothing was queued, delivered or audited by the import itself.
      expect(await count(h, org, 'jobs')).toBe(before.jobs);
      expect(await count(h, org, 'webhook_deliveries')).toBe(before.deliveries);
      expect(await count(h, org, 'audit_events')).toBe(before.audit);
      expect(await count(h, org, 'events')).toBe(before.events);

      // A sync from the start lists the imported contact; new work goes on as usual. Sync lists only
      // settled changes, and on a shared server another file's open transaction can hold that horizon
      // back for a moment: wait for it as a syncing client would ask again.
      await untilSettled(h, org.organisationId);
      const sync = await h
        .api()
        .get('/api/v1/customers?updatedSince=2020-01-01T00:00:00.000Z')
        .set('x-api-key', org.adminKey);
      expect(sync.status).toBe(200);
      expect(sync.body.customers.map((c: { _id: string }) => c._id)).toContain(contactId);
      const added = await createContact(h, org, { Voornaam: 'Nieuw' });
      await untilSettled(h, org.organisationId);
      const later = await h
        .api()
        .get(`/api/v1/customers?startingAfter=${encodeURIComponent(sync.body.nextCursor)}`)
        .set('x-api-key', org.adminKey);
      expect(later.body.customers.map((c: { _id: string }) => c._id)).toEqual([added]);
      expect(await count(h, org, 'audit_events')).toBe(before.audit + 1);

      // After a file store failed part-way, the files alone are written again.
      const filesAgain = await cli(['import', '--from', out, '--files-only'], target.env);
      expect(filesAgain).toMatchObject({ status: 0, stderr: '' });
      expect(filesAgain.stdout).toMatch(/^Imported 0 rows in 0 tables and 1 files \(\d+ bytes\)/);
      const downloadAgain = await asBuffer(h.api().get(before.fileUrl).set('x-api-key', org.adminKey));
      expect(downloadAgain.body).toEqual(PDF);

      // A second import into the same database is refused and changes nothing.
      const again = await cli(['import', '--from', out], target.env);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/already holds organisations: import only into a new database/);
      expect(await count(h, org, 'customers')).toBe(2);
    } finally {
      await h.close();
      await database.close();
    }
  });

  it('when a file in the export is damaged, then the import says the rows are in and which file, and --files-only from an intact copy completes it', async () => {
    const target = await newTarget();
    const damaged = path.join(tempDir('damaged'), 'out');
    fs.cpSync(out, damaged, { recursive: true });
    const [orgDir] = fs.readdirSync(path.join(damaged, 'files'));
    const [fileId] = fs.readdirSync(path.join(damaged, 'files', orgDir!));
    fs.writeFileSync(path.join(damaged, 'files', orgDir!, fileId!), 'not the bytes');
    const first = await cli(['import', '--from', damaged], target.env);
    expect(first.status).toBe(1);
    expect(first.stderr).toContain(
      `the rows are imported, but file ${orgDir}/${fileId} in the export does not match its SHA-256`,
    );
    const mended = await cli(['import', '--from', out, '--files-only'], target.env);
    expect(mended).toMatchObject({ status: 0, stderr: '' });
    expect(mended.stdout).toMatch(/^Imported 0 rows in 0 tables and 1 files /);
  });

  it('when the directory is an organisation export or no export at all, then the import says so and the database stays empty', async () => {
    const target = await newTarget();
    const orgExport = tempDir('org-export');
    fs.writeFileSync(
      path.join(orgExport, 'manifest.json'),
      JSON.stringify({ format: 'actiondesk-organisation-export', version: 1 }),
    );
    const wrongKind = await cli(['import', '--from', orgExport], target.env);
    expect(wrongKind.status).toBe(1);
    expect(wrongKind.stderr).toMatch(
      /is not a database export \(an organisation export cannot be imported\)/,
    );
    const nothing = await cli(['import', '--from', tempDir('empty')], target.env);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toMatch(/holds no readable manifest\.json .*is it a finished 'cli export'\?/);
    const missingArg = await cli(['import'], target.env);
    expect(missingArg.status).toBe(2);
    expect(missingArg.stderr).toMatch(/--from/);
  });

  // pg_dump and pg_restore work on a server: this case runs in the suite against PostgreSQL (CI runs both).
  const onServer = serverUrl ? it : () => undefined;
  onServer(
    'when the server database is backed up with pg_dump and restored with pg_restore into a new database, then the service works on the copy',
    async () => {
      const target = await newTarget();
      fs.copyFileSync(path.join(source, 'encryption.key'), path.join(target.env.DATA_DIR!, 'encryption.key'));
      expect((await cli(['import', '--from', out], target.env)).status).toBe(0);
      const dump = path.join(tempDir('dump'), 'actiondesk.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, target.env.DATABASE_URL!]);
      const restored = new URL(target.env.DATABASE_URL!);
      restored.pathname = `${restored.pathname}_restored`;
      const admin = new URL(serverUrl!);
      admin.pathname = '/postgres';
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`CREATE DATABASE ${restored.pathname.slice(1)}`);
      await client.end();
      drops.push(async () => {
        const c = new pg.Client({ connectionString: admin.toString() });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${restored.pathname.slice(1)} WITH (FORCE)`);
        await c.end();
      });
      execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored.toString()}`, dump]);

      const database = await openDatabase({ kind: 'server', url: restored.toString(), poolSize: 2 });
      const h = await startHarness({ ...target.env, DATABASE_URL: restored.toString() }, { database });
      try {
        const contactId = (before.contact as { _id: string })._id;
        const contact = await h.api().get(`/api/v1/customers/${contactId}`).set('x-api-key', org.adminKey);
        expect(contact.body).toEqual(before.contact);
        const download = await asBuffer(h.api().get(before.fileUrl).set('x-api-key', org.adminKey));
        expect(download.body).toEqual(PDF);
        expect(await createContact(h, org, { Voornaam: 'Na herstel' })).toMatch(/^[0-9a-f-]{36}$/);
      } finally {
        await h.close();
        await database.close();
      }
    },
    60_000,
  );
});
