import { pipeline } from 'node:stream/promises';
import { fingerprintBody } from '../../platform/http/idempotency';
import { receiveFile } from '../../platform/http/multipart';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { DeleteFileQuery, StoredFile, Verification } from './files.schemas';
import { deleteFile, type FileDeps, getFile, openFile, recordUpload } from './files.service';
import { receiveUpload } from './files.upload';
import { verifyFile, verifyUpload } from './files.verification';

const Params = z.object({ fileId: idParam('fileId') });
const tags = ['Files'];

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function fileRoutes(routes: Routes, deps: FileDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/files',
      summary: 'Upload a PDF (multipart/form-data, field `file`)',
      description:
        'One part only: the file, in the field `file`; any other field or a second file → 400 naming it, and nothing is stored. Only PDFs are accepted, recognised by their content (`%PDF-`), not their name. Larger than MAX_FILE_SIZE → 413. Answers the stored file with its size, SHA-256 and download path.',
      tags,
      permission: 'create',
      multipart: { field: 'file', description: 'The PDF' },
      status: 201,
      response: StoredFile,
    },
    async ({ ctx, req }) => {
      const stored = await receiveUpload(deps, ctx, req);
      // A retry with the same Idempotency-Key must send the same file under the same name.
      fingerprintBody(req, { fileName: stored.fileName, sha256: stored.sha256 });
      return recordUpload(deps, ctx, stored);
    },
  );
  routes.add(
    {
      method: 'post',
      path: '/files/verify',
      idempotent: false,
      summary: 'Verify the signatures of a PDF you send (multipart/form-data, field `file`)',
      description:
        'The same check as GET /files/{fileId}/verification, for a PDF that is not stored here (e.g. one a contact sends back): it is read in memory and never stored. Larger than MAX_FILE_SIZE → 413.',
      tags,
      permission: 'read',
      multipart: { field: 'file', description: 'The PDF to verify' },
      response: Verification,
    },
    ({ req, ctx }) =>
      receiveFile(
        req,
        { field: 'file', maxBytes: deps.maxFileBytes, fallbackName: 'document.pdf' },
        (upload) => verifyUpload(deps, ctx, upload),
        async () => undefined,
      ),
  );
  routes.add(
    {
      method: 'get',
      path: '/files/{fileId}/verification',
      summary:
        'Verify the signatures of a stored PDF: intact or not, who signed, when, with which certificate',
      description:
        'Reads every PDF signature of the file (a signed document this service made has one per signer) and checks the bytes each covers and its CMS signature. `valid` is true when every signature is intact and the last covers the whole file. 400 when the file is not a PDF.',
      tags,
      permission: 'read',
      params: Params,
      response: Verification,
    },
    ({ ctx, params }) => verifyFile(deps, ctx, params.fileId),
  );
  routes.add(
    {
      method: 'get',
      path: '/files/{fileId}',
      summary: 'Get a file’s record (name, size, SHA-256, download path)',
      tags,
      permission: 'read',
      params: Params,
      response: StoredFile,
    },
    ({ ctx, params }) => getFile(deps, ctx, params.fileId),
  );
  routes.add(
    {
      method: 'delete',
      path: '/files/{fileId}',
      summary: 'Delete a file',
      description:
        'A file that an action uses as its document, or that a session lists in its documents (now or in an earlier version), is not deleted: 409 whose `details` name the holders (`in: state`; the totals under `sessionRequests.total` and `sessions.total`, then up to 10 of each by id). With `cascade=true` the holding actions go too, with their history, sessions, session versions and the other files only those sessions listed (their reports), in one transaction; the stored bytes are removed after it commits.',
      tags,
      permission: 'delete',
      params: Params,
      query: DeleteFileQuery,
      status: 204,
      responseDescription: 'Deleted',
      errors: [409],
    },
    async ({ ctx, params, query }) => {
      await deleteFile(deps, ctx, params.fileId, { cascade: query.cascade });
      return undefined;
    },
  );
}

/** The spec's fileUrl, `{BASE_URL}/files/downloads/<id>/<fileName>`, with the API's authentication. */
export function fileDownloadRoutes(routes: Routes, deps: FileDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/files/downloads/{fileId}/{fileName}',
      summary: 'Download a file (the fileUrl of sessions and uploads)',
      description:
        'Authenticated like the API (permission read), or by a signed-in staff browser (the action pages link here), and scoped to the organisation. The name must be the file’s own name; anything else is 404.',
      tags,
      permission: 'read',
      accepts: ['api_key', 'session'],
      params: z.object({
        fileId: idParam('fileId'),
        fileName: z
          .string()
          .max(300)
          .meta({ param: { name: 'fileName', in: 'path' }, description: 'The file’s name' }),
      }),
      binary: { contentType: 'application/pdf', description: 'The file, streamed' },
    },
    async ({ ctx, params, res }) => {
      const { file, stream } = await openFile(deps, ctx, params.fileId, params.fileName);
      res.status(200);
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('Content-Disposition', contentDisposition(file.fileName));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, no-store');
      await pipeline(stream, res);
      return undefined;
    },
  );
}
