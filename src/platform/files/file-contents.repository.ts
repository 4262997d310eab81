import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { fileContents } from '../../db/schema/file-contents';
import type { Database } from '../db/database';
import { queryRows } from '../db/database';
import { inActiveOrOwnTransaction, inOwnTenantTransaction } from '../db/tenant';
import { systemContext } from '../kernel/context';
import { type FileStorage, keyParts, measure, StoredObjectMissing } from './storage';

/** Bytes per stored part: small enough for one statement, large enough to be few. */
export const PART_BYTES = 1024 * 1024;

const asBuffer = (data: unknown): Buffer =>
  Buffer.isBuffer(data)
    ? data
    : Buffer.from(
        (data as Uint8Array).buffer,
        (data as Uint8Array).byteOffset,
        (data as Uint8Array).byteLength,
      );

/**
 * File bytes in the database (table file_contents), for every instance on it. An upload is written part
 * by part as it arrives, each part in its own short transaction; a failed upload removes the parts it
 * wrote. The object becomes visible to
 * readers when its `files` row commits, after the last part.
 */
export function databaseStorage(database: Database): FileStorage {
  // Never in a request's held transaction: the bytes arrive before the request's first statement (an
  // idempotent upload names its body by their SHA-256), and a slow upload must not hold it open.
  const inOrg = <T>(organisationId: string, fn: Parameters<typeof inOwnTenantTransaction<T>>[2]) =>
    inOwnTenantTransaction(database, systemContext(organisationId), fn);
  // Reads join the transaction whose callback is running, if any (a document checked while its file
  // row is locked): never a second connection while the caller holds one.
  const reading = <T>(organisationId: string, fn: Parameters<typeof inActiveOrOwnTransaction<T>>[2]) =>
    inActiveOrOwnTransaction(database, systemContext(organisationId), fn);
  const removeParts = (organisationId: string, fileId: string) =>
    inOrg(organisationId, (tx) =>
      tx
        .delete(fileContents)
        .where(and(eq(fileContents.organisationId, organisationId), eq(fileContents.fileId, fileId))),
    );
  return {
    async put(key, source, check) {
      const { organisationId, fileId } = keyParts(key);
      const measured = measure(check);
      let part = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const write = async (data: Buffer) => {
        const at = part++;
        await inOrg(organisationId, (tx) =>
          tx.insert(fileContents).values({ organisationId, fileId, part: at, data }),
        );
      };
      // An object already under the key (a file written again by `cli import --files-only`) is replaced.
      await removeParts(organisationId, fileId);
      try {
        for await (const chunk of measured.through(source)) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          while (pendingBytes >= PART_BYTES) {
            const all = Buffer.concat(pending);
            await write(all.subarray(0, PART_BYTES));
            pending = [all.subarray(PART_BYTES)];
            pendingBytes = all.length - PART_BYTES;
          }
        }
        // The last part, and part 0 of an empty object (so that it exists).
        if (pendingBytes > 0 || part === 0) await write(Buffer.concat(pending));
      } catch (err) {
        await removeParts(organisationId, fileId).catch(() => undefined);
        throw err;
      }
      return measured.result();
    },
    async open(key) {
      const { organisationId, fileId } = keyParts(key);
      const [row] = await reading(organisationId, (tx) =>
        queryRows<{ parts: number }>(
          tx,
          sql`SELECT count(*)::int AS parts FROM file_contents
              WHERE organisation_id = ${organisationId} AND file_id = ${fileId}`,
        ),
      );
      const parts = Number(row?.parts ?? 0);
      if (parts === 0) throw new StoredObjectMissing(key);
      // One part in memory at a time, each read in its own statement as the reader asks for more.
      async function* read(): AsyncGenerator<Buffer> {
        for (let part = 0; part < parts; part++) {
          const [got] = await reading(organisationId, (tx) =>
            tx
              .select({ data: fileContents.data })
              .from(fileContents)
              .where(
                and(
                  eq(fileContents.organisationId, organisationId),
                  eq(fileContents.fileId, fileId),
                  eq(fileContents.part, part),
                ),
              ),
          );
          if (!got) throw new StoredObjectMissing(key);
          yield asBuffer(got.data);
        }
      }
      return Readable.from(read(), { objectMode: false });
    },
    async remove(key) {
      const { organisationId, fileId } = keyParts(key);
      await removeParts(organisationId, fileId);
    },
  };
}
