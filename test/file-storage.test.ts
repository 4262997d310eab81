import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { StoredFile } from '../src/modules/files/files.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { databaseStorage, PART_BYTES } from '../src/platform/files/file-contents.repository';
import { openFileStorage } from '../src/platform/files/file-storage';
import {
  type FileStorage,
  localDiskStorage,
  readAll,
  StoredObjectMissing,
  s3Storage,
} from '../src/platform/files/storage';
import { systemContext } from '../src/platform/kernel/context';
import { newId } from '../src/platform/kernel/ids';
import { asBuffer, samplePdf } from './support/binary';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { startS3Server } from './support/s3-server';

let h: Harness;
let org: TestOrg;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let diskDir: string;

beforeAll(async () => {
  h = await startHarness({ FILE_STORAGE: 'database' });
  org = await createOrg(h);
  s3 = await startS3Server();
  diskDir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-disk-'));
});
afterAll(async () => {
  await h.close();
  await s3.close();
  fs.rmSync(diskDir, { recursive: true, force: true });
});

const keyOf = () => `${org.organisationId}/${newId()}`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A PDF large enough to span several database parts, with `text` in a comment so files differ. */
function pdf(text: string, padding = 0): Buffer {
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n% ${text}\n`,
    ),
    Buffer.from(`% ${'x'.repeat(padding)}\n`),
    Buffer.from('trailer << /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

/** A source that hands over `bytes` in 64 KiB chunks, then fails when `failAfter` bytes went out. */
function source(bytes: Buffer, failAfter?: number): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += 65_536) {
        if (failAfter !== undefined && at >= failAfter) throw new Error('the client went away');
        yield bytes.subarray(at, at + 65_536);
      }
    })(),
  );
}

async function partRows(key: string): Promise<number> {
  const [organisationId, fileId] = key.split('/');
  const [row] = await inTenant(h.database, systemContext(organisationId!), (tx) =>
    queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM file_contents WHERE file_id = ${fileId}`),
  );
  return Number(row?.n);
}

async function fileRows(): Promise<number> {
  const [row] = await inTenant(h.database, systemContext(org.organisationId), (tx) =>
    queryRows<{ n: string }>(tx, sql`SELECT count(*) AS n FROM files`),
  );
  return Number(row?.n);
}

const drivers: [string, () => FileStorage][] = [
  ['disk', () => localDiskStorage(diskDir)],
  ['database', () => databaseStorage(h.database)],
  ['s3', () => s3Storage(s3.config)],
];

describe.each(drivers)('the %s file storage', (name, storage) => {
  it('when an object of several mebibytes is stored, then it reads back byte for byte, with its size and SHA-256', async () => {
    const bytes = randomBytes(PART_BYTES * 2 + 123_457);
    const key = keyOf();
    const stored = await storage().put(key, source(bytes));
    expect(stored).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    const back = await readAll(storage(), key);
    expect(back.length).toBe(bytes.length);
    expect(back.equals(bytes)).toBe(true);
    if (name === 'database') expect(await partRows(key)).toBe(3);
  });

  it('when an empty object is stored, then it exists and reads back empty', async () => {
    const key = keyOf();
    expect(await storage().put(key, Readable.from([]))).toEqual({
      size: 0,
      sha256: sha256(Buffer.alloc(0)),
    });
    expect((await readAll(storage(), key)).length).toBe(0);
  });

  it('when nothing is stored under a key, then opening it says so, and removing it does nothing', async () => {
    const key = keyOf();
    await expect(storage().open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    await expect(storage().remove(key)).resolves.toBeUndefined();
  });

  it('when the check refuses the first bytes, then the put fails and nothing is stored', async () => {
    const key = keyOf();
    const refuse = (head: Buffer) => {
      if (!head.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('not a PDF');
    };
    await expect(storage().put(key, source(Buffer.from('GIF89a and more bytes')), refuse)).rejects.toThrow(
      'not a PDF',
    );
    await expect(storage().open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    if (name === 'database') expect(await partRows(key)).toBe(0);
  });

  it('when the source fails half-way, then the put fails and none of it stays', async () => {
    const key = keyOf();
    const bytes = randomBytes(PART_BYTES * 2);
    await expect(storage().put(key, source(bytes, PART_BYTES + 65_536))).rejects.toThrow(
      'the client went away',
    );
    await expect(storage().open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    if (name === 'database') expect(await partRows(key)).toBe(0);
  });

  it('when an object is stored again under its key, then the new bytes replace the old ones whole', async () => {
    const key = keyOf();
    await storage().put(key, source(randomBytes(PART_BYTES + 10)));
    const again = Buffer.from('written again');
    expect(await storage().put(key, source(again))).toEqual({ size: again.length, sha256: sha256(again) });
    expect((await readAll(storage(), key)).equals(again)).toBe(true);
    if (name === 'database') expect(await partRows(key)).toBe(1);
  });

  it('when an object is removed, then it is gone', async () => {
    const key = keyOf();
    await storage().put(key, source(Buffer.from('short-lived')));
    await storage().remove(key);
    await expect(storage().open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    if (name === 'database') expect(await partRows(key)).toBe(0);
  });

  it('when a key is not made of two ids, then nothing is read or written', async () => {
    for (const key of ['../../etc/passwd', `${org.organisationId}/../x`, `${org.organisationId}`]) {
      await expect(storage().put(key, source(Buffer.from('x')))).rejects.toThrow('invalid storage key');
      await expect(storage().open(key)).rejects.toThrow('invalid storage key');
    }
  });
});

describe('files in the database are seen by every instance', () => {
  it('when one instance stores a file, then another instance with its own data directory serves it, and a removal through it removes the bytes', async () => {
    const second = await startHarness({ FILE_STORAGE: 'database' }, { database: h.database });
    try {
      expect(second.dataDir).not.toBe(h.dataDir);
      const content = pdf('shared', 1_500_000);
      const res = await h
        .api()
        .post('/api/v1/files')
        .set('x-api-key', org.adminKey)
        .attach('file', content, 'Shared.pdf');
      expect(res.status).toBe(201);
      const file = StoredFile.parse(res.body);
      expect(await partRows(`${org.organisationId}/${file._id}`)).toBe(2);
      // Nothing of it on either instance's disk.
      expect(fs.existsSync(path.join(h.dataDir, 'files'))).toBe(false);

      const got = await asBuffer(second.api().get(file.fileUrl)).set('x-api-key', org.adminKey);
      expect(got.status).toBe(200);
      expect(got.headers['content-length']).toBe(String(content.length));
      expect((got.body as Buffer).equals(content)).toBe(true);

      const removed = await second.api().delete(`/api/v1/files/${file._id}`).set('x-api-key', org.adminKey);
      expect(removed.status).toBe(204);
      expect(await partRows(`${org.organisationId}/${file._id}`)).toBe(0);
      expect((await h.api().get(file.fileUrl).set('x-api-key', org.adminKey)).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('when documents stored in the database are checked while their file row is locked, then each check reads on its own transaction, also many at once', async () => {
    const document = await samplePdf('Contract stored in the database', 2);
    const res = await h
      .api()
      .post('/api/v1/files')
      .set('x-api-key', org.adminKey)
      .attach('file', document, 'Deal.pdf');
    expect(res.status).toBe(201);
    const file = StoredFile.parse(res.body);
    // More at once than the server pool has connections (4): a read that took a second connection while
    // its request held one would run the pool dry (and hang the embedded database outright).
    const setups = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        h
          .api()
          .post('/api/v1/quicksigningsetup')
          .set('x-api-key', org.adminKey)
          .send({
            customer: { firstname: 'Ann', lastname: `Peeters ${n}`, email: `ann${n}@example.test` },
            document: { fileid: file._id, title: `Deal ${n}`, type: 'contract' },
          }),
      ),
    );
    expect(setups.map((r) => [r.status, r.body.success])).toEqual(Array(8).fill([200, true]));
  });

  it('when files were stored on disk before FILE_STORAGE moved to the database, then they still download and delete', async () => {
    const key = keyOf();
    const bytes = Buffer.from('written before the move');
    await localDiskStorage(diskDir).put(key, source(bytes));
    const moved = openFileStorage({ kind: 'database', dir: diskDir }, h.database);
    expect((await readAll(moved, key)).equals(bytes)).toBe(true);
    await moved.remove(key);
    await expect(moved.open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    expect(fs.existsSync(path.join(diskDir, key))).toBe(false);
  });
});

describe('files in an S3-compatible store', () => {
  it('when FILE_STORAGE=s3, then an upload lands in the bucket under the prefix, downloads through the API, and a removal deletes the object', async () => {
    const api = await startHarness(s3.env, { database: h.database });
    try {
      const content = pdf('in the bucket');
      const res = await api
        .api()
        .post('/api/v1/files')
        .set('x-api-key', org.adminKey)
        .attach('file', content, 'Bucket.pdf');
      expect(res.status).toBe(201);
      const file = StoredFile.parse(res.body);
      // Read straight from the S3 server, not through our driver.
      const objectUrl = `${s3.config.endpoint}/${s3.config.bucket}/actiondesk/${org.organisationId}/${file._id}`;
      const direct = await fetch(objectUrl);
      expect(direct.status).toBe(200);
      expect(Buffer.from(await direct.arrayBuffer()).equals(content)).toBe(true);

      const got = await asBuffer(api.api().get(file.fileUrl)).set('x-api-key', org.adminKey);
      expect(got.status).toBe(200);
      expect((got.body as Buffer).equals(content)).toBe(true);

      expect(
        (await api.api().delete(`/api/v1/files/${file._id}`).set('x-api-key', org.adminKey)).status,
      ).toBe(204);
      expect((await fetch(objectUrl)).status).toBe(404);
    } finally {
      await api.close();
    }
  });

  it('when the S3 store is down, then an upload gets 503 in the spec shape with Retry-After, and no file is recorded', async () => {
    const gone = await startS3Server('gone-bucket');
    await gone.close();
    const api = await startHarness(gone.env, { database: h.database });
    try {
      const before = await fileRows();
      const res = await api
        .api()
        .post('/api/v1/files')
        .set('x-api-key', org.adminKey)
        .attach('file', pdf('nowhere to go'), 'Nowhere.pdf');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        success: false,
        status: 503,
        error: 'The file store is not available; try again shortly',
        details: [],
        requestId: expect.any(String),
      });
      expect(await fileRows()).toBe(before);
    } finally {
      await api.close();
    }
  });

  it('when the S3 store sends its headers and then stalls, then the download fails as unavailable after the timeout instead of hanging', async () => {
    const stalled = new Set<http.ServerResponse>();
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
      res.write(Buffer.alloc(10));
      stalled.add(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const store = s3Storage({ ...s3.config, endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300 });
      await expect(readAll(store, keyOf())).rejects.toThrow(
        expect.objectContaining({
          name: 'StorageUnavailable',
          message: expect.stringMatching(/stopped sending .* for 300 ms$/),
        }),
      );
    } finally {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when FILE_STORAGE=s3 lacks its endpoint or keys, then the configuration error names each missing variable', async () => {
    await expect(
      startHarness({ FILE_STORAGE: 's3', S3_BUCKET: 'files-bucket' }, { database: h.database }),
    ).rejects.toThrow(
      /S3_ENDPOINT: is required with FILE_STORAGE=s3\n {2}S3_ACCESS_KEY_ID: is required with FILE_STORAGE=s3\n {2}S3_SECRET_ACCESS_KEY: is required/,
    );
  });
});
