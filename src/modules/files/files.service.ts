import type { Readable } from 'node:stream';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { eventRepository } from '../../platform/events/events.repository';
import { recordRemovals, removalOf } from '../../platform/events/removals';
import { type FileStorage, readAll } from '../../platform/files/storage';
import type { IncomingFile } from '../../platform/http/multipart';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, type FieldError, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { plural } from '../../platform/kernel/words';
import { isSignablePdf } from '../../platform/signing/pdf';
import { type SealKeySource, testSealFingerprint } from '../../platform/signing/seal-key';
import { TooManySignatures, verifyPdfSignatures } from '../../platform/signing/verify';
import { organisationSealFingerprint } from '../organisations';
import { sessionsGoingWith } from '../sessions';
import { type FileHolders, fileHolderRepository } from './file-holders.repository';
import { type FileRow, fileRepository } from './files.repository';
import type { StoredFile, Verification } from './files.schemas';

export interface FileDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  maxFileBytes: number;
  /** The service's seal, to say which signatures it made (verification). */
  seal?: SealKeySource;
}

export const PDF_MAGIC = Buffer.from('%PDF-');
export const notFound = () => new NotFound('File not found');

function toStoredFile(row: FileRow): StoredFile {
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

/**
 * Records files' events in the caller's transaction: each file as the API shows it, or, once deleted,
 * its id and name.
 */
export function recordFileEvents(
  tx: Tx,
  ctx: RequestContext,
  type: 'file.created' | 'file.deleted',
  rows: FileRow[],
  at: Date,
): Promise<void> {
  return eventRepository(tx, ctx).record(
    rows.map((row) => ({
      type,
      subjectId: row.id,
      data: { file: type === 'file.deleted' ? { _id: row.id, fileName: row.fileName } : toStoredFile(row) },
    })),
    at,
  );
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
export interface StoredUpload {
  id: string;
  fileName: string;
  storageKey: string;
  size: number;
  sha256: string;
}

/**
 * Stores an uploaded PDF's bytes (hashed as they stream, refused at the first chunk when they are not a
 * PDF, or at the size limit); the record is written by `recordUpload` once the whole request is read.
 */
export async function storeUploadBytes(
  deps: FileDeps,
  ctx: RequestContext,
  upload: IncomingFile,
): Promise<StoredUpload> {
  const id = newId(deps.clock.now().getTime());
  const storageKey = `${ctx.organisationId}/${id}`;
  const stored = await deps.storage.put(storageKey, upload.stream, requirePdf);
  return { id, fileName: upload.fileName, storageKey, ...stored };
}

/** Removes the bytes of an upload that was refused after they were stored. */
export function discardUploadBytes(deps: FileDeps, stored: StoredUpload): Promise<void> {
  return deps.storage.remove(stored.storageKey);
}

/** Records stored bytes as a file of the organisation; a record that cannot be written takes the bytes with it. */
export async function recordUpload(deps: FileDeps, ctx: RequestContext, stored: StoredUpload) {
  try {
    const row = await inTenant(deps.database, ctx, async (tx) => {
      const now = deps.clock.now();
      const inserted = await fileRepository(tx, ctx).insert({
        id: stored.id,
        fileName: stored.fileName,
        contentType: 'application/pdf',
        size: stored.size,
        sha256: stored.sha256,
        storageKey: stored.storageKey,
        createdBy: ctx.userId,
        createdAt: now,
      });
      await recordFileEvents(tx, ctx, 'file.created', [inserted], now);
      return inserted;
    });
    return toStoredFile(row);
  } catch (err) {
    await discardUploadBytes(deps, stored);
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

/** How many holders of each kind a 409 lists by id (the totals are always given). */
const HOLDERS_LISTED = 10;

function fileInUse(holders: FileHolders): Conflict {
  const { sessionRequests: actions, sessions } = holders;
  const details: FieldError[] = [];
  if (actions.total > 0) {
    details.push({
      field: 'sessionRequests.total',
      in: 'state',
      message:
        actions.total === 1
          ? '1 action uses this file as its document'
          : `${actions.total} actions use this file as their document`,
      value: String(actions.total),
    });
    for (const id of actions.ids)
      details.push({
        field: 'sessionRequests',
        in: 'state',
        message: `action ${id} uses this file as its document`,
        value: id,
      });
  }
  if (sessions.total > 0) {
    details.push({
      field: 'sessions.total',
      in: 'state',
      message:
        sessions.total === 1
          ? '1 session lists this file in its documents'
          : `${sessions.total} sessions list this file in their documents`,
      value: String(sessions.total),
    });
    for (const s of sessions.list)
      details.push({
        field: 'sessions',
        in: 'state',
        message: s.campaignVisitor
          ? `session ${s.id} of campaign ${s.sessionRequestId} (one visitor's answers) lists this file in its documents; cascade deletes that visitor's session, not the campaign`
          : `session ${s.id} of action ${s.sessionRequestId} lists this file in its documents; cascade deletes the action`,
        value: s.id,
      });
  }
  const held = [
    actions.total > 0 ? plural(actions.total, 'action') : null,
    sessions.total > 0 ? plural(sessions.total, 'session') : null,
  ].filter(Boolean);
  return new Conflict(
    `The file is in use by ${held.join(' and ')}: delete them first, or ask for them to be deleted with it (cascade=true)`,
    details,
  );
}

/**
 * Records the events of the actions and sessions a cascading delete takes (sessionrequest.deleted,
 * session.deleted), in the order `removeActions` then `removeVisitors` delete them: the actions and
 * their sessions, then the visitors' sessions. The actions and visitors are locked first; their
 * sessions are read by a statement of its own, which sees every session committed before the locks.
 */
async function announceRemovals(
  tx: Tx,
  ctx: RequestContext,
  actionIds: string[],
  visitorIds: string[],
): Promise<void> {
  const actions = await fileRepository(tx, ctx).lockRemoved(actionIds, visitorIds);
  const sessions = await sessionsGoingWith(tx, ctx, actionIds, visitorIds);
  const withActions = new Set(actionIds);
  await recordRemovals(tx, ctx, [
    removalOf(
      actions,
      sessions.filter((s) => withActions.has(s.sessionRequestId)),
    ),
    removalOf(
      [],
      sessions.filter((s) => !withActions.has(s.sessionRequestId)),
    ),
  ]);
}

/** Removes stored bytes after the records are gone (a failure here leaves bytes nobody can reach). */
async function removeStored(storage: FileStorage, removed: FileRow[]): Promise<void> {
  for (const file of removed) await storage.remove(file.storageKey);
}

/**
 * Deletes a file nothing holds: an action using it as its document, or a session listing it, makes it a
 * 409 naming them. With `cascade` those actions go too, with their sessions, session versions and the
 * other files only their sessions listed (reports), all in one transaction; the bytes after the commit.
 */
export async function deleteFile(
  deps: FileDeps,
  ctx: RequestContext,
  id: string,
  opts: { cascade: boolean },
): Promise<void> {
  const removed = await inTenant(deps.database, ctx, async (tx) => {
    const repo = fileRepository(tx, ctx);
    const holding = fileHolderRepository(tx, ctx);
    // Locked first: an action being created with this file commits before the holders are read.
    const file = await repo.find(id, { lock: 'update' });
    if (!file) throw notFound();
    const holders = await holding.holders(file.id, HOLDERS_LISTED);
    const now = deps.clock.now();
    if (holders.sessionRequests.total === 0 && holders.sessions.total === 0) {
      const gone = [(await repo.remove(file.id))!];
      await recordFileEvents(tx, ctx, 'file.deleted', gone, now);
      return gone;
    }
    if (!opts.cascade) throw fileInUse(holders);
    // Actions that use the file as their document or whose own session lists it go whole; a campaign
    // visitor's session goes with its visitor, and the campaign (and every other visitor) stays.
    const actionIds = await holding.holdingActionIds(file.id);
    const visitorIds = await holding.holdingVisitorIds(file.id);
    const reports = [
      ...(await holding.sessionDocumentIds(actionIds)),
      ...(await holding.visitorDocumentIds(visitorIds)),
    ];
    await announceRemovals(tx, ctx, actionIds, visitorIds);
    await repo.removeActions(actionIds);
    await repo.removeVisitors(visitorIds);
    const gone = await holding.removeUnheld([file.id, ...reports.filter((r) => r !== file.id)]);
    if (!gone.some((f) => f.id === file.id)) throw fileInUse(await holding.holders(file.id, HOLDERS_LISTED));
    await recordFileEvents(tx, ctx, 'file.deleted', gone, now);
    return gone;
  });
  await removeStored(deps.storage, removed);
}

/**
 * Records a PDF the service made (a report, a signed document) and already stored under `storageKey`
 * as a file of the organisation, with its `file.created` event, in the caller's transaction. Answers it
 * as a session lists its documents.
 */
export async function recordGeneratedPdf(
  tx: Tx,
  ctx: RequestContext,
  input: {
    id: string;
    fileName: string;
    storageKey: string;
    written: { size: number; sha256: string };
    at: Date;
  },
): Promise<{ fileId: string; fileName: string; fileUrl: string }> {
  const file = await fileRepository(tx, ctx).insert({
    id: input.id,
    fileName: input.fileName,
    contentType: 'application/pdf',
    size: input.written.size,
    sha256: input.written.sha256,
    storageKey: input.storageKey,
    createdBy: null,
    createdAt: input.at,
  });
  await recordFileEvents(tx, ctx, 'file.created', [file], input.at);
  const stored = toStoredFile(file);
  return { fileId: stored._id, fileName: stored.fileName, fileUrl: stored.fileUrl };
}

/** A file of the organisation by its id, for other modules (none: not one of its files). */
export function fileById(tx: Tx, ctx: RequestContext, id: string): Promise<FileRow | undefined> {
  return fileRepository(tx, ctx).find(id);
}

/**
 * The file an action or a setup is to have signed, held (FOR SHARE) until the caller's transaction
 * ends, so that it cannot be deleted meanwhile; or, when it cannot be signed, why (for the field's
 * error): not a file of the organisation, not a PDF, or a PDF that cannot take a signature.
 */
export async function lockSignableFile(
  tx: Tx,
  ctx: RequestContext,
  storage: FileStorage,
  id: string,
): Promise<{ file: FileRow; problem?: undefined } | { file?: undefined; problem: string }> {
  const file = await fileRepository(tx, ctx).find(id, { lock: 'share' });
  if (!file) return { problem: 'is not a file of this organisation' };
  if (file.contentType !== 'application/pdf') return { problem: 'is not a PDF' };
  const problem = await isSignablePdf(await readAll(storage, file.storageKey));
  return problem ? { problem } : { file };
}

/** The ids of the reports of every session a contact submitted (their own actions' and campaigns'). */
export function contactDocumentIds(tx: Tx, ctx: RequestContext, customerId: string): Promise<string[]> {
  return fileHolderRepository(tx, ctx).contactDocumentIds(customerId);
}

/**
 * Deletes those of these files that nothing holds any more, with their `file.deleted` events; answers
 * the deleted records (the caller removes their bytes once its transaction has committed).
 */
export async function removeUnheldFiles(
  tx: Tx,
  ctx: RequestContext,
  ids: string[],
  now: Date,
): Promise<FileRow[]> {
  const removed = await fileHolderRepository(tx, ctx).removeUnheld(ids);
  await recordFileEvents(tx, ctx, 'file.deleted', removed, now);
  return removed;
}
