import { randomUUID } from 'node:crypto';
import express, { type Express, Router } from 'express';
import { pinoHttp } from 'pino-http';
import type { Config } from './config';
import { accountRoutes } from './modules/accounts';
import { auditRoutes } from './modules/audit';
import { customerRoutes } from './modules/customers';
import {
  auditPageRoutes,
  deskPageRoutes,
  deskRoutes,
  providerPageRoutes,
  staffUserOf,
  userPageRoutes,
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
import { adminRoutes, organisationApiLimit } from './modules/organisations';
import { portfolioRoutes } from './modules/portfolios';
import { questionListRoutes } from './modules/questionlists';
import { respondentRoutes } from './modules/respondent';
import { sessionRequestRoutes } from './modules/sessionrequests';
import { sessionRoutes } from './modules/sessions';
import { setupRoutes, wizardRoutes } from './modules/setups';
import { DocumentPreviews } from './modules/signing';
import { OidcClient, ssoProviderRoutes, ssoSignInRoutes } from './modules/sso';
import { webhookRoutes } from './modules/webhooks';
import type { Clock } from './platform/clock';
import { openSecretBox, type SecretBox } from './platform/crypto/sealed';
import type { Database } from './platform/db/database';
import { openFileStorage } from './platform/file-storage';
import {
  ApiKeyAuthenticator,
  AuthGate,
  BearerAuthenticator,
  SessionAuthenticator,
} from './platform/http/auth';
import { errorHandler, methodNotAllowed, unknownRoute } from './platform/http/error-handler';
import { Idempotency } from './platform/http/idempotency';
import { RateLimits } from './platform/http/rate-limit';
import { jsonBodyParser, Routes, type WebKit } from './platform/http/routes';
import { readJobQueue } from './platform/jobs/jobs.repository';
import type { JobSignal } from './platform/jobs/worker';
import { type Logger, serializeError, withLogFields } from './platform/logger';
import { Metrics } from './platform/metrics';
import { createRegistry, generateDocument } from './platform/openapi';
import { Readiness } from './platform/readiness';
import { redactUrl, withRedaction } from './platform/redaction';
import { listedNetworksPolicy, SafeHttpClient, type SafeHttpPolicy } from './platform/safe-http';
import { qualifiedProvider } from './platform/signing/qualified';
import { type SealKeySource, sealKeySource } from './platform/signing/seal-key';
import type { FileStorage } from './platform/storage';
import { readCookies } from './platform/web/cookies';
import { csrfGuard } from './platform/web/csrf';
import { staffSessions } from './platform/web/sessions';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  /** Told when a request has committed new background jobs. */
  jobs: JobSignal;
  /** Parse every response with its schema (tests): a body that drifts from the contract becomes a 500. */
  checkResponses?: boolean;
  /** Seals stored secrets; by default from the configuration. */
  box?: SecretBox;
  /** How webhook host names are resolved (tests give their own names); DNS by default. */
  lookup?: SafeHttpPolicy['lookup'];
  /** The seal key (loaded at start by the server); by default loaded when first needed. */
  seal?: SealKeySource;
  /** Where file bytes are (by default as configured: FILE_STORAGE). */
  storage?: FileStorage;
  /** The process's metrics (shared with the worker); by default the app's own. */
  metrics?: Metrics;
  /** Set draining by the server when it begins to stop (GET /health then answers 503). */
  readiness?: Readiness;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application: middleware, every module's routes, then 404 and the error handler. */
export function createApp(deps: AppDeps): Express {
  const { config, clock, logger } = deps;
  const metrics = deps.metrics ?? new Metrics({ process: false });
  // Transactions timed for the metrics; the pool and the job queue read at every scrape.
  const database = metrics.timed(deps.database);
  metrics.watchPool(deps.database);
  metrics.watchQueue(() => readJobQueue(deps.database.db, clock.now()));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');

  // Every answer counted and timed by route (its documented path, named by Routes), method and status.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route =
        (res.locals.route as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : 'other');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.statusCode === 429) metrics.rateLimitRefusals.inc({ route });
    });
    next();
  });

  app.use(
    pinoHttp({
      logger,
      // req.log carries only the request id; the full request is serialised once, on the response line.
      quietReqLogger: true,
      genReqId(req, res) {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customSuccessObject: (req, _res, val) => withActor(req as express.Request, val),
      customErrorObject: (req, _res, _err, val) => withActor(req as express.Request, val),
      // Our serializers read the raw objects: no full copy of every request is built just to be trimmed.
      wrapSerializers: false,
      serializers: {
        req: (req: express.Request) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.originalUrl),
          remoteAddress: req.socket?.remoteAddress,
        }),
        res: (res: express.Response) => ({ statusCode: res.statusCode }),
        err: serializeError,
      },
    }),
  );

  // Every line logged while serving the request, by any logger, carries its id.
  // The credentials it carries (declared by its route) are taken out of all of them (redaction.ts).
  app.use((req, _res, next) => withLogFields({ requestId: req.id }, () => withRedaction(next)));

  // A request that changed something may have queued jobs (messages, webhook deliveries for the events
  // it wrote): once it has answered, this process's worker looks for them at once instead of at its
  // next poll. Opening an action's link (a GET) writes an event too.
  app.use((req, res, next) => {
    res.on('finish', () => {
      if (res.statusCode < 400 && (req.method !== 'GET' || req.path.startsWith('/action/'))) deps.jobs.wake();
    });
    next();
  });

  const box = deps.box ?? openSecretBox(config.encryption);
  const secure = config.baseUrl.startsWith('https:');
  // Browser plumbing: cookies read once; staff sessions (only a browser that signed in has one); the
  // CSRF guards of the two audiences. Their keys are derived from ENCRYPTION_KEYS.
  app.use(readCookies);
  app.use(
    staffSessions({
      database,
      secrets: [box.mac('staff-session', 'v1')],
      secure,
      absoluteMs: config.staff.absoluteMs,
    }),
  );
  const csrfSecrets = [box.mac('csrf', 'v1')];
  const web: WebKit = {
    signInPath: '/signin',
    csrf: {
      contact: csrfGuard({
        secrets: csrfSecrets,
        cookieName: 'adk_csrf',
        path: '/action',
        secure,
        sessionOf: () => 'contact',
      }),
      staff: csrfGuard({
        secrets: csrfSecrets,
        cookieName: secure ? '__Host-adk_staff_csrf' : 'adk_staff_csrf',
        path: '/',
        secure,
        sessionOf: (req) => (req.session?.staff ? req.sessionID : 'anonymous'),
      }),
    },
  };

  const bodyParser = jsonBodyParser(config.bodyLimit);
  const registry = createRegistry();
  const gate = new AuthGate(
    [
      new ApiKeyAuthenticator(database, clock, config.authCacheTtlMs),
      new BearerAuthenticator(database, clock, config.authCacheTtlMs),
      new SessionAuthenticator(database, clock, config.staff),
    ],
    clock,
    web.csrf.staff,
  );

  const idempotency = new Idempotency({ database, box });
  const limits = new RateLimits({
    database,
    clock,
    config: config.rateLimits,
    organisationLimit: (ctx) => organisationApiLimit(database, ctx),
  });
  const fileDeps = {
    database,
    clock,
    storage: deps.storage ?? openFileStorage(config.files, database),
    maxFileBytes: config.maxFileBytes,
    seal: deps.seal ?? sealKeySource({ database, box, clock }, config.signing),
  };
  const previews = new DocumentPreviews();
  const root = Router();
  const rootRoutes = new Routes(
    root,
    registry,
    gate,
    '',
    bodyParser,
    deps.checkResponses,
    web,
    limits,
    idempotency,
  );
  healthRoutes(rootRoutes, {
    database,
    clock,
    startedAt: Date.now(),
    readiness: deps.readiness ?? new Readiness(),
  });
  root.use(metricsRoutes(registry, metrics, config.metrics.token));
  respondentRoutes(rootRoutes, {
    ...fileDeps,
    timeZone: config.timeZone,
    baseUrl: config.baseUrl,
    secureCookies: secure,
    csrf: web.csrf.contact,
    box,
    phoneRegion: config.phoneRegion,
    previews,
    wrongCodes: limits.counter('wrong_codes', config.rateLimits.wrongCodes),
    newVisitors: limits.counter('new_visitors', config.rateLimits.newVisitors),
  });
  fileDownloadRoutes(rootRoutes, fileDeps);
  oauthMetadataRoutes(rootRoutes, config.baseUrl);
  apiReferenceRoutes(root);

  const api = Router();
  const routes = new Routes(
    api,
    registry,
    gate,
    '/api/v1',
    bodyParser,
    deps.checkResponses,
    web,
    limits,
    idempotency,
  );
  const accountDeps = { database, clock, box, passwordLinkMs: config.staff.passwordLinkMs };
  accountRoutes(rootRoutes, routes, { ...accountDeps, secureCookies: secure });
  deskRoutes(rootRoutes, { database, clock });
  userPageRoutes(rootRoutes, accountDeps);
  app.use(root);
  const moduleDeps = { database, clock };
  customerRoutes(routes, { ...moduleDeps, storage: fileDeps.storage });
  portfolioRoutes(routes, moduleDeps);
  adminRoutes(routes, { ...moduleDeps, limits });
  oauthClientRoutes(routes, moduleDeps);
  tokenRoutes(routes, { ...moduleDeps, ...config.oauth });
  authorizeRoutes(routes, { ...moduleDeps, issuer: config.baseUrl });
  oauthEndpointRoutes(routes, { ...moduleDeps, issuer: config.baseUrl });
  // Where sign-in providers and their directories may be: checked when one is registered, and at every connection.
  const ssoPolicy = listedNetworksPolicy(config.sso.privateNetworks, deps.lookup);
  const ssoDeps = { ...moduleDeps, box, baseUrl: config.baseUrl, destinations: ssoPolicy };
  ssoProviderRoutes(routes, ssoDeps);
  auditRoutes(routes, moduleDeps);
  providerPageRoutes(rootRoutes, ssoDeps);
  auditPageRoutes(rootRoutes, moduleDeps);
  ssoSignInRoutes(rootRoutes, routes, {
    ...moduleDeps,
    box,
    baseUrl: config.baseUrl,
    secureCookies: secure,
    oidc: new OidcClient(ssoPolicy, clock),
  });
  questionListRoutes(routes, moduleDeps);
  fileRoutes(routes, fileDeps);
  sessionRoutes(routes, moduleDeps);
  sessionRequestRoutes(routes, {
    ...moduleDeps,
    baseUrl: config.baseUrl,
    phoneRegion: config.phoneRegion,
    jobs: deps.jobs,
    storage: fileDeps.storage,
    // None is built in (docs/signing.md#qualified-signatures): only a registered, configured one.
    qualifiedSigning: qualifiedProvider(config.qualifiedSigning) !== null,
  });
  const setupDeps = {
    ...moduleDeps,
    storage: fileDeps.storage,
    baseUrl: config.baseUrl,
    ttlMs: config.setupTtlMs,
  };
  setupRoutes(routes, setupDeps);
  wizardRoutes(rootRoutes, {
    ...setupDeps,
    phoneRegion: config.phoneRegion,
    jobs: deps.jobs,
    qualifiedSigning: qualifiedProvider(config.qualifiedSigning) !== null,
    previews,
    staffUserOf: (ctx) => staffUserOf(moduleDeps, ctx),
  });
  deskPageRoutes(rootRoutes, {
    ...setupDeps,
    phoneRegion: config.phoneRegion,
    jobs: deps.jobs,
    qualifiedSigning: qualifiedProvider(config.qualifiedSigning) !== null,
  });
  eventRoutes(routes, moduleDeps);
  const policy: SafeHttpPolicy = { ...config.webhooks, lookup: deps.lookup };
  webhookRoutes(routes, {
    ...moduleDeps,
    box,
    http: new SafeHttpClient({ ...policy, keepAlive: false }),
    policy,
    timeoutMs: config.webhooks.timeoutMs,
    jobs: deps.jobs,
  });
  registerEventWebhooks(registry);
  openapiRoutes(routes, registry, config.baseUrl);
  // The document, for tools in the same process (the tests' contract check), without a request.
  app.locals.openapiDocument = () => generateDocument(registry, config.baseUrl);
  app.use('/api/v1', api);

  app.use(
    methodNotAllowed(() =>
      registry.definitions.flatMap((d) =>
        d.type === 'route' ? [{ path: d.route.path, method: d.route.method }] : [],
      ),
    ),
  );
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}

function withActor(req: express.Request, val: object) {
  return { ...val, organisationId: req.ctx?.organisationId, userId: req.ctx?.userId };
}
