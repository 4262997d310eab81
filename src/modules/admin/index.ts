// The admin module's public entry: what other modules may use.
export type { UserRow } from './admin.repository';
export { adminRoutes } from './admin.router';
export type { ApiKey, User } from './admin.schemas';
export {
  createApiKey,
  createUser,
  endUserSessions,
  getUser,
  listApiKeys,
  listUsers,
  revokeApiKey,
  setUserStatus,
  updateUser,
} from './admin.service';
export { bootstrapOrganisation } from './bootstrap.service';
export { organisationApiLimit } from './limits.service';
export {
  deleteOrganisation,
  type ExportManifest,
  exportOrganisation,
  OffboardingError,
} from './offboarding.service';
export {
  type Organisation,
  organisationName,
  organisationOf,
  setPasswordSignIn,
} from './organisation.service';
export {
  administratorEmails,
  allUsers,
  changeUser,
  holdAdministrators,
  otherActiveAdministrators,
  provisionUser,
  setUserPassword,
  userByEmail,
  userById,
} from './users.service';
