// The organisations module's public entry: the organisation, its users and API keys, bootstrap and
// offboarding — what other modules may use.

export { bootstrapOrganisation } from './bootstrap.service';
export { logoRoutes } from './brand.router';
export { BrandSettings, UpdateBrand } from './brand.schemas';
export {
  type BrandDeps,
  brandRead,
  getBrand,
  type MessageBrand,
  messageBrand,
  type OrganisationBrand,
  organisationBrand,
  organisationLogo,
  removeLogo,
  setLogo,
  updateBrand,
} from './brand.service';
export { receiveLogo } from './brand.upload';
export { organisationApiLimit } from './limits.service';
export { embedLogo, type LogoType } from './logo';
export {
  deleteOrganisation,
  exportOrganisation,
  OffboardingError,
  wipeTestOrganisation,
} from './offboarding.service';
export type { UserRow } from './organisations.repository';
export { adminRoutes } from './organisations.router';
export type { ApiKey, User } from './organisations.schemas';
export {
  createApiKey,
  createUser,
  endUserSessions,
  getUser,
  listApiKeys,
  listUsers,
  type Organisation,
  organisationName,
  organisationOf,
  revokeApiKey,
  setPasswordSignIn,
  setUserStatus,
  updateUser,
} from './organisations.service';
export type { OrganisationSeal } from './seal.schemas';
export {
  getOrganisationSeal,
  organisationSealFingerprint,
  organisationSealKey,
  removeOrganisationSeal,
  SEAL_MAX_BYTES,
  SEAL_WARNING_DAYS,
  type SealDeps,
  SealRefused,
  setOrganisationSeal,
} from './seal.service';
export { receiveSeal } from './seal.upload';
export { sealExpiryHandler, sealExpiryJob } from './seal-expiry.job';
export { inMode, type Mode, modeOf, modeOfCurrent, requireTestMode } from './test-twin';
export { monthPeriod, type OrganisationUsage, usageReport } from './usage.service';
export {
  administratorEmails,
  allUsers,
  changeUser,
  holdAdministrators,
  otherActiveAdministrators,
  provisionUser,
  setUserPassword,
  setUserPreferences,
  userByEmail,
  userById,
} from './users.service';
