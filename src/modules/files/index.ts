// The files module's public entry: what other modules may use.
export type { FileRow } from './files.repository';
export { fileDownloadRoutes, fileRoutes } from './files.router';
export { StoredFile } from './files.schemas';
export {
  contactDocumentIds,
  fileById,
  lockSignableFile,
  recordFileEvents,
  recordGeneratedPdf,
  removeUnheldFiles,
} from './files.service';
