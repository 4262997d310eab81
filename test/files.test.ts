import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { StoredFile } from '../src/modules/files/files.schemas';
import { systemContext } from '../src/platform/context';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { asBuffer } from './support/binary';
import { createOrg, createUserWithKey, type TestOrg, unknownId } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  h = await startHarness({ MAX_FILE_SIZE: '64kb' });
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

/** A small but well-formed PDF, with `text` in its content stream so different files differ. */
function pdf(text: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );
}

const upload = (content: Buffer, name: string, key = org.adminKey) =>
  h.api().post('/api/v1/files').set('x-api-key', key).attach('file', content, name);
const download = (url: string, key: string | undefined = org.adminKey) => {
  const req = asBuffer(h.api().get(url));
  return key ? req.set('x-api-key', key) : req;
};

const storedNames = (o: TestOrg) => {
  const dir = path.join(h.dataDir, 'files', o.organisationId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
async function fileRows(o: TestOrg) {
  const [row] = await inTenant(h.database, systemContext(o.organisationId), (tx) =>
    queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM files`),
  );
  return Number(row?.n);
}

describe('POST /api/v1/files', () => {
  it('when a PDF is uploaded, then it is stored with its size and SHA-256 and downloads byte for byte', async () => {
    const content = pdf('contract one');
    const res = await upload(content, 'Contract é.pdf');
    expect(res.status).toBe(201);
    const stored = StoredFile.parse(res.body);
    expect(stored).toMatchObject({
      fileName: 'Contract é.pdf',
      contentType: 'application/pdf',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      fileUrl: `/files/downloads/${stored._id}/Contract%20%C3%A9.pdf`,
    });
    expect(fs.readFileSync(path.join(h.dataDir, 'files', org.organisationId, stored._id))).toEqual(content);

    const got = await download(stored.fileUrl);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-length']).toBe(String(content.length));
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="Contract _.pdf"; filename*=UTF-8''Contract%20%C3%A9.pdf`,
    );
    expect(got.body).toEqual(content);
  });

  it('when the client sends a path as the file name, then only the name is kept', async () => {
    const res = await upload(pdf('path'), 'C:\\Users\\x\\..\\evil.pdf');
    expect(res.body.fileName).toBe('evil.pdf');
  });

  it('when the content is not a PDF (whatever its name), then 400 names the field and nothing is stored', async () => {
    const before = { rows: await fileRows(org), names: storedNames(org).length };
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(2000, 1),
    ]);
    const res = await upload(png, 'scan.pdf');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400, details: [{ field: 'file' }] });
    expect(res.body.error).toMatch(/is not a PDF/);
    expect({ rows: await fileRows(org), names: storedNames(org).length }).toEqual(before);
  });

  it('when the file is over MAX_FILE_SIZE, then 413 and nothing is stored, not even a partial file', async () => {
    const before = { rows: await fileRows(org), names: storedNames(org).length };
    const big = Buffer.concat([pdf('big'), Buffer.alloc(70 * 1024, 0x20)]);
    const res = await upload(big, 'big.pdf');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      success: false,
      status: 413,
      error: 'File too large: the limit is 65536 bytes',
    });
    expect({ rows: await fileRows(org), names: storedNames(org).length }).toEqual(before);
  });

  it('when the body is not multipart, then 415; when it has no file field, then 400 names the field', async () => {
    const json = await h.api().post('/api/v1/files').set('x-api-key', org.adminKey).send({ file: 'x' });
    expect(json.status).toBe(415);
    expect(json.body).toMatchObject({
      success: false,
      status: 415,
      error: expect.stringMatching(/multipart\/form-data/),
    });
    const noFile = await h.api().post('/api/v1/files').set('x-api-key', org.adminKey).field('title', 'x');
    expect(noFile.status).toBe(400);
    expect(noFile.body.details).toEqual([expect.objectContaining({ field: 'file' })]);
  });

  it('when a read-only user uploads, then 403; without a key, 401', async () => {
    const reader = await createUserWithKey(h, org, ['read-only']);
    expect((await upload(pdf('r'), 'r.pdf', reader.key)).status).toBe(403);
    const anonymous = await h.api().post('/api/v1/files').attach('file', pdf('a'), 'a.pdf');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, code: 401 });
  });
});

describe('GET /files/downloads/{id}/{fileName}', () => {
  let stored: { _id: string; fileUrl: string };
  beforeAll(async () => {
    stored = (await upload(pdf('secret'), 'secret.pdf')).body;
  });

  it('when asked without a key, then 401 in the auth shape', async () => {
    const res = await h.api().get(stored.fileUrl);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 401 });
  });

  it('when another organisation asks, then 404 as for a file that does not exist', async () => {
    const res = await h.api().get(stored.fileUrl).set('x-api-key', other.adminKey);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, error: 'File not found' });
    expect(
      (await h.api().get(`/files/downloads/${unknownId}/secret.pdf`).set('x-api-key', org.adminKey)).status,
    ).toBe(404);
  });

  it.each(['other.pdf', '..%2F..%2F..%2F..%2Fetc%2Fpasswd', '..%2Fsecret.pdf', '%2E%2E'])(
    'when the name is %s, then 404 and nothing outside storage is read',
    async (name) => {
      const res = await h.api().get(`/files/downloads/${stored._id}/${name}`).set('x-api-key', org.adminKey);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, status: 404 });
      expect(res.text).not.toContain('root:');
    },
  );

  it('when the id itself is a traversal attempt, then 404', async () => {
    const res = await h.api().get('/files/downloads/..%2F..%2Fetc/passwd').set('x-api-key', org.adminKey);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('root:');
  });
});

describe('DELETE /api/v1/files/{id}', () => {
  it('when deleted, then the record and the bytes are gone; others get 403 or 404 and change nothing', async () => {
    const stored = (await upload(pdf('to delete'), 'gone.pdf')).body;
    const reader = await createUserWithKey(h, org, ['read-only']);
    expect((await h.api().delete(`/api/v1/files/${stored._id}`).set('x-api-key', reader.key)).status).toBe(
      403,
    );
    expect(
      (await h.api().delete(`/api/v1/files/${stored._id}`).set('x-api-key', other.adminKey)).status,
    ).toBe(404);
    expect(storedNames(org)).toContain(stored._id);

    const res = await h.api().delete(`/api/v1/files/${stored._id}`).set('x-api-key', org.adminKey);
    expect(res.status).toBe(204);
    expect(storedNames(org)).not.toContain(stored._id);
    expect((await h.api().get(`/api/v1/files/${stored._id}`).set('x-api-key', org.adminKey)).status).toBe(
      404,
    );
    expect((await download(stored.fileUrl)).status).toBe(404);
    expect((await h.api().delete(`/api/v1/files/${stored._id}`).set('x-api-key', org.adminKey)).status).toBe(
      404,
    );
  });
});
