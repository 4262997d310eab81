import express, { type Express, Router } from 'express';
import { accountRoutes } from './modules/accounts';
import { auditRoutes } from './modules/audit';
import { customerRoutes } from './modules/customers';
import {
  auditPageRoutes,
  deskPageRoutes,
  deskRoutes,
  oauthClientPageRoutes,
  providerPageRoutes,
  sealPageRoutes,
  staffFrameOf,
  testInboxPageRoutes,
  userPageRoutes,
  webhookPageRoutes,
} from './modules/desk';
import { eventRoutes, registerEventWebhooks } from './modules/events';
import { fileDownloadRoutes, fileRoutes } from './modules/files';
import { healthRoutes, metricsRoutes } from './modules/health';
import {
  authorizeRoutes,
  oauthClientRoutes,
  oauthEndpointRoutes,
  oauthMetadataRoutes,
  tokenRoutes,
} from './modules/oauth';
import { apiReferenceRoutes, openapiRoutes } from './modules/openapi';
import { adminRoutes, logoRoutes, modeOf, organisationApiLimit } from './modules/organisations';
import { portfolioRoutes } from './modules/portfolios';
import { questionListRoutes } from './modules/questionlists';
import { respondentRoutes } from './modules/respondent';
import { sessionRequestRoutes } from './modules/sessionrequests';
import { sessionRoutes } from './modules/sessions';
import { setupRoutes, wizardRoutes } from './modules/setups';
import { ssoProviderRoutes, ssoSignInRoutes } from './modules/sso';
import { testModeRoutes } from './modules/testmode';
import { webhookRoutes } from './modules/webhooks';
import { ApiKeyAuthenticator, AuthGate, BearerAuthenticator } from './platform/http/auth';
import { SessionAuthenticator } from './platform/http/auth-session';
import { errorHandler, methodNotAllowed, unknownRoute } from './platform/http/error-handler';
import { Idempotency } from './platform/http/idempotency';
import {
  countRequests,
  logUnderRequest,
  requestLogger,
  wakeJobsAfterWrites,
} from './platform/http/middleware';
import { createRegistry, generateDocument } from './platform/http/openapi';
import { RateLimits } from './platform/http/rate-limit';
import { jsonBodyParser } from './platform/http/route-input';
import { Routes, type WebKit } from './platform/http/routes';
import { SafeHttpClient } from './platform/outbound/safe-http';
import { browserPlumbing } from './platform/web/browser';
import type { Services } from './services';

export interface AppOptions {
  /** Parse every response with its schema (tests): a body that drifts from the contract becomes a 500. */
  checkResponses?: boolean;
}

/** Where the API is mounted. */
const API_PATH = '/api/v1';

/** Builds the HTTP application over the process's services: middleware, every module's routes, 404, errors. */
export function createApp(services: Services, options: AppOptions = {}): Express {
  const { config, database, box, baseUrl } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  app.use(countRequests(services.metrics));
  app.use(requestLogger(services.logger));
  app.use(logUnderRequest);
  app.use(wakeJobsAfterWrites(services.jobs));
  const browser = browserPlumbing({
    database,
    box,
    secure: services.secureCookies,
    absoluteMs: config.staff.absoluteMs,
    apiPath: API_PATH,
  });
  app.use(browser.middleware);

  const { registry, limits, routesOn } = routeKit(services, browser.web, options.checkResponses);
  const webhookDeps = {
    policy: services.webhookPolicy,
    http: new SafeHttpClient({ ...services.webhookPolicy, keepAlive: false }),
    timeoutMs: config.webhooks.timeoutMs,
  };
  const root = Router();
  const api = Router();
  const pages = routesOn(root, '');
  const routes = routesOn(api, API_PATH);

  // The site's root: health, metrics, the contact's pages, downloads, discovery, the staff pages.
  healthRoutes(pages, services);
  root.use(metricsRoutes(registry, services.metrics, config.metrics.token));
  const counters = { wrongCodes: config.rateLimits.wrongCodes, newVisitors: config.rateLimits.newVisitors };
  respondentRoutes(pages, {
    ...services,
    csrf: browser.web.csrf.contact,
    wrongCodes: limits.counter('wrong_codes', counters.wrongCodes),
    newVisitors: limits.counter('new_visitors', counters.newVisitors),
  });
  fileDownloadRoutes(pages, services);
  logoRoutes(pages, services);
  oauthMetadataRoutes(pages, baseUrl);
  apiReferenceRoutes(root);
  accountRoutes(pages, routes, services);
  deskRoutes(pages, services);
  userPageRoutes(pages, services);
  oauthClientPageRoutes(pages, { ...services, ...webhookDeps });
  webhookPageRoutes(pages, { ...services, ...webhookDeps });
  testInboxPageRoutes(pages, services);
  sealPageRoutes(pages, services);

  // The API (/api/v1), with the staff pages that share its modules.
  customerRoutes(routes, services);
  portfolioRoutes(routes, services);
  adminRoutes(routes, { ...services, limits });
  oauthClientRoutes(routes, services);
  tokenRoutes(routes, { ...services, ...config.oauth });
  authorizeRoutes(routes, { ...services, issuer: baseUrl });
  oauthEndpointRoutes(routes, { ...services, issuer: baseUrl });
  ssoProviderRoutes(routes, { ...services, destinations: services.ssoPolicy });
  auditRoutes(routes, services);
  providerPageRoutes(pages, { ...services, destinations: services.ssoPolicy });
  auditPageRoutes(pages, services);
  ssoSignInRoutes(pages, routes, services);
  questionListRoutes(routes, services);
  fileRoutes(routes, services);
  sessionRoutes(routes, services);
  sessionRequestRoutes(routes, services);
  setupRoutes(routes, { ...services, ttlMs: config.setupTtlMs });
  wizardRoutes(pages, {
    ...services,
    ttlMs: config.setupTtlMs,
    staffFrameOf: (ctx, csrf) => staffFrameOf(services, ctx, csrf),
  });
  deskPageRoutes(pages, services);
  eventRoutes(routes, services);
  webhookRoutes(routes, { ...services, ...webhookDeps });
  testModeRoutes(routes, services);
  registerEventWebhooks(registry);
  openapiRoutes(routes, registry, baseUrl);
  // The document, for tools in the same process (the tests' contract check), without a request.
  app.locals.openapiDocument = () => generateDocument(registry, baseUrl);
  // The API first: a call does not walk the pages' routes (no path is in both).
  app.use(API_PATH, api);
  app.use(root);

  const documented = () =>
    registry.definitions.flatMap((d) =>
      d.type === 'route' ? [{ path: d.route.path, method: d.route.method }] : [],
    );
  app.use(methodNotAllowed(documented));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}

/** What every route table shares: the OpenAPI registry, authentication, rate limits, idempotent POSTs. */
function routeKit(services: Services, web: WebKit, checkResponses: boolean | undefined) {
  const { config, database, clock, box } = services;
  const registry = createRegistry();
  const authenticators = [
    new ApiKeyAuthenticator(database, clock, config.authCacheTtlMs),
    new BearerAuthenticator(database, clock, config.authCacheTtlMs),
    new SessionAuthenticator(database, clock, config.staff),
  ];
  const gate = new AuthGate(authenticators, clock, web.csrf.staff, (id) => modeOf(database, id));
  const organisationLimit = (ctx: Parameters<typeof organisationApiLimit>[1]) =>
    organisationApiLimit(database, ctx);
  const limits = new RateLimits({ database, clock, config: config.rateLimits, organisationLimit });
  const idempotency = new Idempotency({ database, box });
  const bodyParser = jsonBodyParser(config.bodyLimit);
  const routesOn = (router: Router, base: string) =>
    new Routes(router, registry, gate, base, bodyParser, checkResponses, web, limits, idempotency);
  return { registry, limits, routesOn };
}
