// The admin module's public entry: what other modules may use.
export { organisationRepository, userRepository } from './admin.repository';
export { adminRoutes } from './admin.router';
export { bootstrapOrganisation } from './bootstrap.service';
