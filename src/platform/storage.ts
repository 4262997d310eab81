import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  size: number;
  sha256: string;
}

/**
 * Where file contents live, behind keys made by the application from ids only (never from a name a
 * client chose). Local disk now; an S3-compatible driver can implement the same four operations.
 */
export interface FileStorage {
  /** Writes the stream under `key`, hashing as it goes; `check` sees the first chunk and may throw. */
  put(key: string, source: Readable, check?: (head: Buffer) => void): Promise<StoredObject>;
  open(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;
const HEAD_BYTES = 16;

/** Files under one directory; a key is `<organisationId>/<fileId>`. */
export function localDiskStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(root, key);
  };
  return {
    async put(key, source, check) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside the target and renamed when complete: a reader never sees half a file.
      const partial = `${target}.partial`;
      const hash = createHash('sha256');
      let size = 0;
      // The check sees at least the first HEAD_BYTES bytes (or the whole file when it is shorter).
      let head: Buffer | null = Buffer.alloc(0);
      const checkHead = (more: Buffer) => {
        if (head === null) return;
        head = Buffer.concat([head, more]);
        if (head.length >= HEAD_BYTES) {
          check?.(head);
          head = null;
        }
      };
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(
          source,
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              checkHead(chunk);
              size += chunk.length;
              hash.update(chunk);
              yield chunk;
            }
            if (head !== null) check?.(head);
          },
          out,
        );
        await rename(partial, target);
      } catch (err) {
        // A source that fails at once can leave the file still being opened: wait until the stream has
        // let go of it, or it would appear after its removal and stay behind.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        await rm(partial, { force: true });
        throw err;
      }
      return { size, sha256: hash.digest('hex') };
    },
    async open(key) {
      const file = pathOf(key);
      await stat(file);
      return createReadStream(file);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** The whole stored object in memory (for documents that are rendered or signed). */
export async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
