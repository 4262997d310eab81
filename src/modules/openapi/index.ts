// The openapi module's public entry.
export { openapiRoutes } from './openapi.router';
export { apiReferenceRoutes } from './reference';
