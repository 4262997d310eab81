// The files module's public entry: what other modules may use.
export { fileRepository } from './files.repository';
export { fileDownloadRoutes, fileRoutes } from './files.router';
export { StoredFile } from './files.schemas';
export { recordFileEvents, recordGeneratedPdf } from './files.service';
