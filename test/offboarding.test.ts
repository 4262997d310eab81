import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { deleteOrganisation, exportOrganisation } from '../src/modules/organisations';
import { openFileStorage } from '../src/platform/files/file-storage';
import { StoredObjectMissing } from '../src/platform/files/storage';
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
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let leaving: TestOrg;
let staying: TestOrg;
let out: string;

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  leaving = await createOrg(h, 'Kantoor Vertrek');
  staying = await createOrg(h, 'Kantoor Blijft');
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-export-'));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(out, { recursive: true, force: true });
});

/** The harness's own file storage (the same configuration: disk embedded, database on a server). */
const storage = () => openFileStorage({ kind: 'auto', dir: path.join(h.dataDir, 'files') }, h.database);

const PDF = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );

async function upload(org: TestOrg, text: string) {
  const res = await h
    .api()
    .post('/api/v1/files')
    .set('x-api-key', org.adminKey)
    .attach('file', PDF(text), `${text}.pdf`);
  expect(res.status).toBe(201);
  return res.body as { _id: string; fileUrl: string; size: number };
}

async function history(org: TestOrg) {
  const contact = await createContact(h, org, { Voornaam: 'Mira', Email: 'mira@example.test' });
  const template = await createTemplate(h, org);
  const actionId = await createInvitedAction(h, org, contact, template);
  await h.jobs.drain();
  await completeAsContact(h, org.organisationId, actionId);
  await createWebhook(h, org, 'http://127.0.0.1:9/hook', ['*']);
  return {
    contact,
    action: actionId,
    file: await upload(org, `contract-${org.organisationId}`),
  };
}

const lines = (table: string) =>
  fs
    .readFileSync(path.join(out, `${table}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('offboarding an organisation', () => {
  it('when it is exported, then every table of its records is written as JSON lines with its files, without secrets and without another organisation’s rows', async () => {
    const mine = await history(leaving);
    await history(staying);
    const manifest = await exportOrganisation(
      { database: h.database, storage: storage() },
      leaving.organisationId,
      out,
      h.clock.now(),
    );
    expect(manifest).toMatchObject({
      format: 'actiondesk-organisation-export',
      version: 1,
      organisationId: leaving.organisationId,
      organisationName: 'Kantoor Vertrek',
      files: { count: 1, bytes: mine.file.size, missing: [] },
    });
    expect(manifest.tables).toMatchObject({
      organisations: 1,
      customers: 1,
      session_requests: 1,
      webhook_endpoints: 1,
      files: 1,
    });
    expect(manifest.tables.audit_events).toBeGreaterThan(5);
    expect(manifest.tables.events).toBeGreaterThan(3);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))).toEqual(manifest);

    for (const [table, rows] of Object.entries(manifest.tables)) {
      const read = lines(table);
      expect({ table, rows: read.length }).toEqual({ table, rows });
      for (const row of read) {
        const owner = table === 'organisations' ? row.id : row.organisation_id;
        expect({ table, owner }).toEqual({ table, owner: leaving.organisationId });
      }
    }
    expect(lines('customers')[0]).toMatchObject({ id: mine.contact, data: { Voornaam: 'Mira' } });
    // No credentials, secrets or bookkeeping.
    expect(Object.keys(lines('api_keys')[0]!)).not.toContain('secret_hash');
    expect(Object.keys(lines('users')[0]!)).not.toContain('password_hash');
    expect(Object.keys(lines('webhook_endpoints')[0]!)).not.toContain('secrets');
    expect(Object.keys(lines('customers')[0]!)).not.toContain('change_txid');
    expect(Object.keys(lines('files')[0]!)).not.toContain('storage_key');
    expect(fs.existsSync(path.join(out, 'jobs.jsonl'))).toBe(false);
    // The file's bytes, as uploaded.
    expect(fs.readFileSync(path.join(out, 'files', mine.file._id))).toEqual(
      PDF(`contract-${leaving.organisationId}`),
    );

    // A second export into the same directory is refused: nothing is overwritten.
    await expect(
      exportOrganisation(
        { database: h.database, storage: storage() },
        leaving.organisationId,
        out,
        h.clock.now(),
      ),
    ).rejects.toThrow(`${out} is not empty`);
  });

  it('when the name given to confirm is not the organisation’s, then nothing is deleted', async () => {
    await expect(
      deleteOrganisation(
        { database: h.database, storage: storage() },
        leaving.organisationId,
        'Kantoor Blijft',
      ),
    ).rejects.toThrow(
      '--confirm must be the organisation\'s name exactly ("Kantoor Vertrek"); nothing was deleted',
    );
    expect((await h.api().get('/api/v1/customers').set('x-api-key', leaving.adminKey)).status).toBe(200);
  });

  it('when it is deleted, then its rows and file bytes are gone, its keys stop working, and the other organisation keeps everything', async () => {
    const [file] = await tenantRows<{ storage_key: string; id: string }>(
      h,
      leaving.organisationId,
      sql`SELECT id, storage_key FROM files`,
    );
    const gone = await deleteOrganisation(
      { database: h.database, storage: storage() },
      leaving.organisationId,
      'Kantoor Vertrek',
    );
    expect(gone).toMatchObject({
      name: 'Kantoor Vertrek',
      counts: { customers: 1, session_requests: 1, files: 1, users: 1 },
      filesRemoved: 1,
    });
    expect(gone.counts.audit_events).toBeGreaterThan(5);
    await expect(storage().open(file!.storage_key)).rejects.toBeInstanceOf(StoredObjectMissing);
    expect((await h.api().get('/api/v1/customers').set('x-api-key', leaving.adminKey)).status).toBe(401);

    // No row of it is left in any table with an organisation_id, the audit trail included.
    const tables = await tenantRows<{ table_name: string }>(
      h,
      staying.organisationId,
      sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'organisation_id'`,
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_name } of tables) {
      const [row] = await tenantRows<{ n: string }>(
        h,
        leaving.organisationId,
        sql`SELECT count(*) AS n FROM ${sql.identifier(table_name)}`,
      );
      expect({ table_name, n: Number(row?.n) }).toEqual({ table_name, n: 0 });
    }

    const contacts = await h.api().get('/api/v1/customers').set('x-api-key', staying.adminKey);
    expect(contacts.body.customers).toHaveLength(1);
    const [kept] = await tenantRows<{ id: string; file_name: string }>(
      h,
      staying.organisationId,
      sql`SELECT id, file_name FROM files`,
    );
    const download = await asBuffer(h.api().get(`/files/downloads/${kept!.id}/${kept!.file_name}`)).set(
      'x-api-key',
      staying.adminKey,
    );
    expect(download.status).toBe(200);
  });
});
