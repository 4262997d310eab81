import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { StoredFile } from '../src/modules/files/files.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { asBuffer } from './support/binary';
import {
  createContact,
  createOrg,
  createUserWithKey,
  type TestOrg,
  unknownId,
  untilSettled,
} from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { createReportTemplate, submittedSession } from './support/submissions';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  // Files on disk: the tests look at the stored bytes (test/file-storage.test.ts covers every driver).
  h = await startHarness({ MAX_FILE_SIZE: '64kb', FILE_STORAGE: 'disk' });
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

/** A small but well-formed one-page PDF, with `text` in a comment so different files differ. */
function pdf(text: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
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
    expect(noFile.body.details).toEqual([
      { field: 'title', in: 'body', message: 'is not a known field' },
      {
        field: 'file',
        in: 'body',
        message: 'a multipart/form-data body with one file in this field is required',
      },
    ]);
  });

  it.each([
    [
      'a field after the file',
      () => upload(pdf('a'), 'a.pdf').field('title', 'x'),
      [{ field: 'title', in: 'body', message: 'is not a known field' }],
    ],
    [
      'a second file',
      () =>
        h
          .api()
          .post('/api/v1/files')
          .set('x-api-key', org.adminKey)
          .attach('file', pdf('b'), 'b.pdf')
          .attach('file', pdf('c'), 'c.pdf'),
      [{ field: 'file', in: 'body', message: 'only one file is accepted' }],
    ],
    [
      'a file in another field',
      () => upload(pdf('d'), 'd.pdf').attach('attachment', pdf('e'), 'e.pdf'),
      [{ field: 'attachment', in: 'body', message: 'is not a known field' }],
    ],
  ])('when the upload holds %s, then 400 names it and nothing is stored', async (_what, send, details) => {
    const before = { rows: await fileRows(org), names: storedNames(org).length };
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(details);
    expect({ rows: await fileRows(org), names: storedNames(org).length }).toEqual(before);
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

describe('DELETE /api/v1/files/{id} of a file in use', () => {
  let contact: string;
  let template: string;
  beforeAll(async () => {
    contact = await createContact(h, org, { Voornaam: 'An', Email: 'an@example.test' });
    template = await createReportTemplate(h, org);
  });

  const remove = (id: string, query = '', key = org.adminKey) =>
    h.api().delete(`/api/v1/files/${id}${query}`).set('x-api-key', key);
  const quicksign = async (fileId: string) => {
    const res = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'quicksign', customerId: contact, document: { fileId, title: 'Contract' } });
    expect(res.status).toBe(201);
    return res.body._id as string;
  };
  async function rowsOf(table: 'session_requests' | 'session_request_events' | 'sessions', ids: string[]) {
    const column = table === 'session_request_events' ? sql.raw('session_request_id') : sql.raw('id');
    const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: string }>(
        tx,
        sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE ${column} = ANY(${`{${ids.join(',')}}`}::uuid[])`,
      ),
    );
    return Number(row?.n);
  }
  async function versionsOf(sessionId: string) {
    const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: string }>(
        tx,
        sql`SELECT count(*) AS n FROM session_versions WHERE session_id = ${sessionId}`,
      ),
    );
    return Number(row?.n);
  }
  async function fileExists(id: string) {
    const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
      queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM files WHERE id = ${id}`),
    );
    return Number(row?.n) === 1 && storedNames(org).includes(id);
  }

  it('when an action uses the file as its document, then 409 names the action and the file stays downloadable', async () => {
    const content = pdf('contract to sign');
    const file = StoredFile.parse((await upload(content, 'contract.pdf')).body);
    const actionId = await quicksign(file._id);

    const res = await remove(file._id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      success: false,
      status: 409,
      error: expect.stringMatching(/^The file is in use by 1 action: .*cascade=true/),
    });
    expect(res.body.details).toEqual([
      {
        field: 'sessionRequests.total',
        in: 'state',
        message: '1 action uses this file as its document',
        value: '1',
      },
      {
        field: 'sessionRequests',
        in: 'state',
        message: `action ${actionId} uses this file as its document`,
        value: actionId,
      },
    ]);
    expect(await fileExists(file._id)).toBe(true);
    const got = await download(file.fileUrl);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(content);
    expect(await rowsOf('session_requests', [actionId])).toBe(1);

    // cascade=false is the same as leaving it out.
    expect((await remove(file._id, '?cascade=false')).status).toBe(409);
    expect(await fileExists(file._id)).toBe(true);
  });

  it('when cascade=true, then the file, its bytes, the action and its history are gone, and nothing else', async () => {
    const file = StoredFile.parse((await upload(pdf('cascade contract'), 'contract.pdf')).body);
    const bystander = StoredFile.parse((await upload(pdf('bystander'), 'other.pdf')).body);
    const actionIds = [await quicksign(file._id), await quicksign(file._id)];
    const otherAction = await quicksign(bystander._id);
    expect(await rowsOf('session_request_events', actionIds)).toBe(2);

    const res = await remove(file._id, '?cascade=true');
    expect(res.status).toBe(204);
    expect(await fileExists(file._id)).toBe(false);
    expect(await rowsOf('session_requests', actionIds)).toBe(0);
    expect(await rowsOf('session_request_events', actionIds)).toBe(0);
    expect((await download(file.fileUrl)).status).toBe(404);
    expect(
      (await h.api().get(`/api/v1/sessionrequests/${actionIds[0]}`).set('x-api-key', org.adminKey)).status,
    ).toBe(404);
    // What held another file is untouched.
    expect(await fileExists(bystander._id)).toBe(true);
    expect(await rowsOf('session_requests', [otherAction])).toBe(1);
    // The actions that went are announced, so a sync drops them too.
    await untilSettled(h, org.organisationId);
    const removed = await h
      .api()
      .get('/api/v1/events?type=sessionrequest.deleted&limit=1000')
      .set('x-api-key', org.adminKey);
    const announced = removed.body.events.map(
      (e: { data: { sessionRequest: { _id: string; type: string } } }) => e.data.sessionRequest,
    );
    for (const id of actionIds)
      expect(announced).toContainEqual(expect.objectContaining({ _id: id, type: 'quicksign' }));
    expect(announced.map((a: { _id: string }) => a._id)).not.toContain(otherAction);
  });

  it('when many actions use it, then the 409 gives the total and lists the first ten, oldest first', async () => {
    const file = StoredFile.parse((await upload(pdf('popular'), 'popular.pdf')).body);
    const actionIds: string[] = [];
    for (let i = 0; i < 12; i++) {
      actionIds.push(await quicksign(file._id));
      h.clock.advance(1000);
    }
    const res = await remove(file._id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^The file is in use by 12 actions:/);
    expect(res.body.details[0]).toMatchObject({ field: 'sessionRequests.total', value: '12' });
    expect(res.body.details.slice(1).map((d: { value: string }) => d.value)).toEqual(actionIds.slice(0, 10));
  });

  it('when a session lists the file (a report of an earlier version), then 409 names the session; with cascade its action, session, versions and reports go', async () => {
    const s = await submittedSession(h, org, { template, contact, times: 2 });
    expect(s.reportIds).toHaveLength(2);
    expect(await versionsOf(s.sessionId)).toBe(2);
    const [firstReport, lastReport] = s.reportIds as [string, string];
    expect(await fileExists(firstReport)).toBe(true);

    const refused = await remove(firstReport);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/^The file is in use by 1 session:/);
    expect(refused.body.details).toEqual([
      {
        field: 'sessions.total',
        in: 'state',
        message: '1 session lists this file in its documents',
        value: '1',
      },
      {
        field: 'sessions',
        in: 'state',
        message: `session ${s.sessionId} of action ${s.actionId} lists this file in its documents; cascade deletes the action`,
        value: s.sessionId,
      },
    ]);
    expect(await fileExists(firstReport)).toBe(true);

    const res = await remove(firstReport, '?cascade=true');
    expect(res.status).toBe(204);
    expect(await fileExists(firstReport)).toBe(false);
    expect(await fileExists(lastReport)).toBe(false);
    expect(await rowsOf('session_requests', [s.actionId])).toBe(0);
    expect(await rowsOf('sessions', [s.sessionId])).toBe(0);
    expect(await versionsOf(s.sessionId)).toBe(0);
    // The contact stays: only what held the file went.
    expect((await h.api().get(`/api/v1/customers/${contact}`).set('x-api-key', org.adminKey)).status).toBe(
      200,
    );
  });

  it('when another organisation asks with cascade=true, then 404 and nothing changes; a cascade that is not true/false is 400', async () => {
    const file = StoredFile.parse((await upload(pdf('guarded'), 'guarded.pdf')).body);
    const actionId = await quicksign(file._id);
    const res = await remove(file._id, '?cascade=true', other.adminKey);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, error: 'File not found' });
    const bad = await remove(file._id, '?cascade=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'cascade', in: 'query' })]);
    expect(await fileExists(file._id)).toBe(true);
    expect(await rowsOf('session_requests', [actionId])).toBe(1);
  });
});
