import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AwsClient } from 'aws4fetch';

export interface StoredObject {
  size: number;
  sha256: string;
}

/**
 * Where file contents live, behind keys made by the application from ids only (never from a name a
 * client chose): `<organisationId>/<fileId>`. Drivers: local disk, the database (file_contents), and an
 * S3-compatible object store; see docs/operations.md#files.
 */
export interface FileStorage {
  /**
   * Writes the stream under `key`, replacing any object there, hashing as it goes; `check` sees the
   * first chunk and may throw.
   */
  put(key: string, source: Readable, check?: (head: Buffer) => void): Promise<StoredObject>;
  /** The object's bytes; rejects with a `StoredObjectMissing` when there is none under `key`. */
  open(key: string): Promise<Readable>;
  /** Removes the object; nothing happens when there is none. */
  remove(key: string): Promise<void>;
}

/** No object is stored under the key (code ENOENT, as the disk driver's own error). */
export class StoredObjectMissing extends Error {
  override name = 'StoredObjectMissing';
  readonly code = 'ENOENT';
  constructor(key: string) {
    super(`no stored object under ${key}`);
  }
}

/** The file store could not be reached or failed (an S3 store down, slow or answering 5xx): a 503. */
export class StorageUnavailable extends Error {
  override name = 'StorageUnavailable';
}

const KEY = /^([0-9a-f-]{36})\/([0-9a-f-]{36})$/;
const HEAD_BYTES = 16;

/** The organisation and file ids of a storage key; throws for anything else. */
export function keyParts(key: string): { organisationId: string; fileId: string } {
  const m = KEY.exec(key);
  if (!m) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return { organisationId: m[1]!, fileId: m[2]! };
}

/**
 * A pass-through for the chunks of an upload that counts and hashes them, and shows `check` at least
 * the first HEAD_BYTES bytes (or the whole object when it is shorter) before they go further.
 */
export function measure(check?: (head: Buffer) => void) {
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const checkHead = (more: Buffer) => {
    if (head === null) return;
    head = Buffer.concat([head, more]);
    if (head.length >= HEAD_BYTES) {
      check?.(head);
      head = null;
    }
  };
  return {
    async *through(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of chunks) {
        checkHead(chunk);
        size += chunk.length;
        hash.update(chunk);
        yield chunk;
      }
      if (head !== null) check?.(head);
    },
    result: (): StoredObject => ({ size, sha256: hash.digest('hex') }),
  };
}

/**
 * Copies the object under `key` into a new local file `target` (exports), measuring it on the way.
 * Undefined when the store holds nothing under the key; any other failure rejects.
 */
async function saveStoredObject(
  storage: FileStorage,
  key: string,
  target: string,
): Promise<StoredObject | undefined> {
  let source: Readable;
  try {
    source = await storage.open(key);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const measured = measure();
  await pipeline(source, measured.through, createWriteStream(target, { flags: 'wx' }));
  return measured.result();
}

/**
 * Copies stored files into `dir`, each to its own relative path `saveAs`, checking each against its
 * SHA-256 (a mismatch rejects). Files the store has no bytes for are listed by `saveAs`, not fatal.
 */
export async function saveStoredFiles(
  storage: FileStorage,
  files: readonly { key: string; sha256: string; saveAs: string }[],
  dir: string,
): Promise<{ count: number; bytes: number; missing: string[] }> {
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  const missing: string[] = [];
  for (const file of files) {
    const target = path.join(dir, ...file.saveAs.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    const saved = await saveStoredObject(storage, file.key, target);
    if (!saved) {
      missing.push(file.saveAs);
      continue;
    }
    if (saved.sha256 !== file.sha256)
      throw new Error(`file ${file.saveAs}: its bytes do not match its SHA-256`);
    bytes += saved.size;
  }
  return { count: files.length - missing.length, bytes, missing };
}

/** Files under one directory; a key is `<organisationId>/<fileId>`. */
export function localDiskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    keyParts(key);
    return path.join(root, key);
  };
  return {
    async put(key, source, check) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside the target and renamed when complete: a reader never sees half a file.
      const partial = `${target}.partial`;
      const measured = measure(check);
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(source, measured.through, out);
        await rename(partial, target);
      } catch (err) {
        // A source that fails at once can leave the file still being opened: wait until the stream has
        // let go of it, or it would appear after its removal and stay behind.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        await rm(partial, { force: true });
        throw err;
      }
      return measured.result();
    },
    async open(key) {
      const file = pathOf(key);
      try {
        await stat(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredObjectMissing(key);
        throw err;
      }
      return createReadStream(file);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** Where an S3-compatible object store is, and the credentials to sign requests to it with. */
export interface S3StorageConfig {
  /** `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000`: scheme, host and port only. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Prepended to every key (e.g. `actiondesk/`), so that one bucket can serve several uses. */
  readonly prefix: string;
  /** `endpoint/bucket/key` (true, what MinIO and most stores expect) or `bucket.endpoint/key`. */
  readonly pathStyle: boolean;
  /** How long a request may take to be answered (its headers), in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * An S3-compatible object store (AWS S3, MinIO, Ceph, R2, …), requests signed with AWS Signature
 * Version 4. An upload is held in memory until complete (at most MAX_FILE_SIZE) and sent in one PUT with
 * its SHA-256, so the store refuses a body that arrives damaged.
 */
export function s3Storage(config: S3StorageConfig): FileStorage {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: 's3',
    region: config.region,
    // aws4fetch retries 5xx and 429 ten times by default: two, then the request answers 503.
    retries: 2,
  });
  const base = new URL(config.endpoint);
  const urlOf = (key: string) => {
    keyParts(key);
    const object = `${config.prefix}${key}`.split('/').map(encodeURIComponent).join('/');
    return config.pathStyle
      ? `${base.origin}/${encodeURIComponent(config.bucket)}/${object}`
      : `${base.protocol}//${config.bucket}.${base.host}/${object}`;
  };
  /** One signed request, given up when no answer (headers) comes within the timeout. */
  const send = async (key: string, init: RequestInit): Promise<Response> => {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`the file store did not answer within ${config.timeoutMs} ms`)),
      config.timeoutMs,
    );
    let res: Response;
    try {
      res = await client.fetch(urlOf(key), { ...init, signal: abort.signal });
    } catch (err) {
      throw new StorageUnavailable(`the file store cannot be reached: ${(err as Error).message}`, {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
    }
    if (res.status >= 500 || res.status === 429) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      throw new StorageUnavailable(`the file store answered HTTP ${res.status} ${text}`);
    }
    return res;
  };
  const failure = async (what: string, key: string, res: Response) =>
    new Error(`file store ${what} ${key}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return {
    async put(key, source, check) {
      const measured = measure(check);
      const chunks: Buffer[] = [];
      for await (const chunk of measured.through(source)) chunks.push(chunk);
      const res = await send(key, {
        method: 'PUT',
        body: Buffer.concat(chunks),
        headers: { 'content-type': 'application/octet-stream' },
      });
      if (!res.ok) throw await failure('refused to store', key, res);
      await res.body?.cancel();
      return measured.result();
    },
    async open(key) {
      const res = await send(key, { method: 'GET' });
      if (res.status === 404) {
        await res.body?.cancel();
        throw new StoredObjectMissing(key);
      }
      if (!res.ok || !res.body) throw await failure('refused to read', key, res);
      return stallGuard(
        Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
        config.timeoutMs,
        key,
      );
    },
    async remove(key) {
      const res = await send(key, { method: 'DELETE' });
      if (!res.ok && res.status !== 404) throw await failure('refused to remove', key, res);
      await res.body?.cancel();
    },
  };
}

/**
 * Passes a download through, and fails it with StorageUnavailable when no byte arrives for `ms` while
 * the reader waits for more (a store that sent its headers and then stalled would otherwise hold the
 * reader, and its transaction, for ever). A reader that is slow to take the bytes is waited for.
 */
function stallGuard(source: Readable, ms: number, key: string): Readable {
  let timer: NodeJS.Timeout | undefined;
  const out = new PassThrough();
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // A reader that does not take what has arrived is slow, not the store: wait for it.
      if (out.writableNeedDrain || out.readableLength >= out.readableHighWaterMark) {
        arm();
        return;
      }
      const err = new StorageUnavailable(`the file store stopped sending ${key} for ${ms} ms`);
      source.destroy(err);
      out.destroy(err);
    }, ms);
  };
  arm();
  source.on('data', arm);
  pipeline(source, out).then(
    () => clearTimeout(timer),
    (err: unknown) => {
      clearTimeout(timer);
      out.destroy(err as Error);
    },
  );
  return out;
}

/**
 * Reads and removes through `primary`, and for an object it does not hold, through `earlier`: the
 * files written to disk before FILE_STORAGE moved to the database or S3 stay readable.
 */
export function withEarlierStorage(primary: FileStorage, earlier: FileStorage): FileStorage {
  return {
    put: (key, source, check) => primary.put(key, source, check),
    async open(key) {
      try {
        return await primary.open(key);
      } catch (err) {
        if (!(err instanceof StoredObjectMissing)) throw err;
        return earlier.open(key);
      }
    },
    async remove(key) {
      await primary.remove(key);
      await earlier.remove(key);
    },
  };
}

/** The whole stored object in memory (for documents that are rendered or signed). */
export async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
