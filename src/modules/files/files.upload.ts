import type { Request } from 'express';
import { receiveFile } from '../../platform/http/multipart';
import type { RequestContext } from '../../platform/kernel/context';
import { discardUploadBytes, type FileDeps, type StoredUpload, storeUploadBytes } from './files.service';

// The HTTP side of an upload (a router's helper, for the API and the desk alike).

/**
 * Reads a request that holds one PDF in the multipart field `file` (nothing else) into storage: what
 * `POST /files` and the desk's upload both receive. The record is written by `recordUpload`.
 */
export function receiveUpload(deps: FileDeps, ctx: RequestContext, req: Request): Promise<StoredUpload> {
  return receiveFile(
    req,
    { field: 'file', maxBytes: deps.maxFileBytes, fallbackName: 'document.pdf' },
    (upload) => storeUploadBytes(deps, ctx, upload),
    (made) => discardUploadBytes(deps, made),
  );
}
