// The adviser's desk: the staff pages.

export { deskPageRoutes } from './actions.router';
export { auditPageRoutes } from './audit.router';
export { oauthClientPageRoutes } from './clients.router';
export { deskRoutes } from './desk.router';
export { staffFrameOf } from './desk.service';
export { providerPageRoutes } from './providers.router';
export { sealPageRoutes } from './seal.router';
export { testInboxPageRoutes } from './test-inbox.router';
export { userPageRoutes } from './users.router';
export { webhookPageRoutes } from './webhooks.router';
