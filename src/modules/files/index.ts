// The files module's public entry: what other modules may use.

export { fileDownloadRoutes, fileRoutes } from './files.router';
export { StoredFile } from './files.schemas';
export {
  contactDocumentIds,
  fileById,
  lockSignableFile,
  recordGeneratedPdf,
  recordUpload,
  removeUnheldFiles,
} from './files.service';
export { receiveUpload } from './files.upload';
export {
  DocumentPreviews,
  filePagesHandler,
  filePagesJob,
  PAGE_IMAGE_WIDTH,
  type PreviewFile,
} from './previews';
