import type { Readable } from 'node:stream';
import type { Clock } from '../../platform/clock';
import type { RequestContext } from '../../platform/context';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { BadRequest, NotFound } from '../../platform/errors';
import type { IncomingFile } from '../../platform/http/multipart';
import { newId } from '../../platform/ids';
import { iso } from '../../platform/schemas';
import type { FileStorage } from '../../platform/storage';
import { type FileRow, fileRepository } from './files.repository';
import type { StoredFile } from './files.schemas';

export interface FileDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  maxFileBytes: number;
}

const PDF_MAGIC = Buffer.from('%PDF-');
const notFound = () => new NotFound('File not found');

export function toStoredFile(row: FileRow): StoredFile {
  return {
    _id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    fileUrl: `/files/downloads/${row.id}/${encodeURIComponent(row.fileName)}`,
    createdAt: iso(row.createdAt),
  };
}

/** A PDF is recognised by its first bytes, whatever its name or the content type the client sent. */
function requirePdf(head: Buffer): void {
  if (!head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
    throw BadRequest.field('file', 'is not a PDF (its content does not start with %PDF-)');
}

/**
 * Stores an uploaded PDF: the bytes first (hashed as they stream, refused at the first chunk when they
 * are not a PDF, or at the size limit), then the record; a record that cannot be written takes the
 * bytes with it.
 */
export async function storeUpload(deps: FileDeps, ctx: RequestContext, upload: IncomingFile) {
  const now = deps.clock.now();
  const id = newId(now.getTime());
  const storageKey = `${ctx.organisationId}/${id}`;
  const stored = await deps.storage.put(storageKey, upload.stream, requirePdf);
  try {
    const row = await inTenant(deps.database, ctx, (tx) =>
      fileRepository(tx, ctx).insert({
        id,
        fileName: upload.fileName,
        contentType: 'application/pdf',
        size: stored.size,
        sha256: stored.sha256,
        storageKey,
        createdBy: ctx.userId,
        createdAt: now,
      }),
    );
    return toStoredFile(row);
  } catch (err) {
    await deps.storage.remove(storageKey);
    throw err;
  }
}

/**
 * Opens a file for download. The name in the URL must be the file's own name: anything else,
 * including a path such as `../../etc/passwd`, is 404 and never touches storage.
 */
export async function openFile(
  deps: FileDeps,
  ctx: RequestContext,
  id: string,
  fileName: string,
): Promise<{ file: FileRow; stream: Readable }> {
  const file = await inTenant(deps.database, ctx, (tx) => fileRepository(tx, ctx).find(id));
  if (!file || file.fileName !== fileName) throw notFound();
  return { file, stream: await deps.storage.open(file.storageKey) };
}

export async function getFile(deps: FileDeps, ctx: RequestContext, id: string) {
  const file = await inTenant(deps.database, ctx, (tx) => fileRepository(tx, ctx).find(id));
  if (!file) throw notFound();
  return toStoredFile(file);
}

/** Deletes the record, then the bytes (after the commit: a failed delete leaves both). */
export async function deleteFile(deps: FileDeps, ctx: RequestContext, id: string): Promise<void> {
  const removed = await inTenant(deps.database, ctx, (tx) => fileRepository(tx, ctx).remove(id));
  if (!removed) throw notFound();
  await deps.storage.remove(removed.storageKey);
}
