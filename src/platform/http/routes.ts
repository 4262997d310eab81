import { randomBytes } from 'node:crypto';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import express from 'express';
import { credentialParamsOf, declareRoute, redactValue } from '../redaction';
import { z } from '../zod';
import { clientAddress } from './address';
import './request';
import { type Credential, type Origin, type RequestContext, servingRequest } from '../context';
import { AppError, UnsupportedMediaType } from '../errors';
import { AuthErrorBody, ErrorBody, OAuthErrorBody, type OpenAPIRegistry } from '../openapi';
import type { Permission } from '../permissions';
import { SECRET_ALREADY_SHOWN, shownOnceFields } from '../shown-once';
import type { CsrfGuard } from '../web/csrf';
import { nonceOf, pageHeaders } from '../web/headers';
import { API_CREDENTIALS, type AuthGate, SessionEnded, scopeFor } from './auth';
import { settleError } from './error-handler';
import { type Idempotency, idempotencyKeyOf } from './idempotency';
import { assertPlainInput } from './plain-input';
import type { AddressLimit, RateLimits } from './rate-limit';
import { fromZodError, invalid, type Location } from './validation';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a route that declares no body accepts: nothing, or an empty JSON object. */
const NO_BODY = z.strictObject({});
/** What a route that declares no query accepts. */
const NO_QUERY = z.strictObject({});

/** Form posts of the public pages: small, flat (no nested objects). */
const formParser = express.urlencoded({ extended: false, limit: '200kb', parameterLimit: 1000 });
type AnySchema = z.ZodType;

/** The header idempotent POSTs take (docs/api.md#idempotent-requests). */
const IdempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        'Makes the POST safe to retry: the same key with the same request within 24 hours answers the first answer again without doing the work twice; with another request, 422. 1–255 visible ASCII characters; a new UUID per operation.',
    }),
});

const replayedHeader = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string' as const },
  },
};

/** An OAuth endpoint's JSON answer: never cached (RFC 6749 §5.1). */
function sendOAuthJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** The headers of a 429 (every limited answer carries the two RateLimit ones). */
const rateLimitHeaders = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const } },
  RateLimit: {
    description: 'IETF draft 8: `"<limit>"; r=<left>; t=<seconds until the window ends>`',
    schema: { type: 'string' as const },
  },
  'RateLimit-Policy': {
    description: 'IETF draft 8: `"<limit>"; q=<requests>; w=<window seconds>; pk=:<partition>:`',
    schema: { type: 'string' as const },
  },
};

const errorDescriptions: Record<number, string> = {
  400: 'Invalid input; `details` names each failing field',
  401: 'Missing, malformed, unknown or revoked credentials, or the user no longer exists',
  403: 'The user is deactivated or lacks the permission',
  404: 'Unknown id, or an id of another organisation',
  409: 'Conflicts with the current state',
  410: 'Existed, but can no longer be used (expired or used up)',
  413: 'Request body over the size limit',
  422: 'The Idempotency-Key was used for another request in the last 24 hours',
  429: 'Too many requests: wait the `Retry-After` seconds, then back off exponentially (docs/api.md#rate-limits)',
  415: 'The body is not of the Content-Type the route takes (application/json, or multipart/form-data for uploads)',
  500: 'Unexpected error (no internals are revealed)',
  503: 'A dependency is unavailable',
};

interface RouteSpec<P extends AnySchema, Q extends AnySchema, B extends AnySchema, R extends AnySchema> {
  method: Method;
  /** OpenAPI-style path below the router's base, e.g. `/customers/{customerId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (it is then read as `{}`). */
  optionalBody?: boolean;
  /** A multipart/form-data body with one file field, read by the handler from `req` (documented only). */
  multipart?: { field: string; description: string };
  /** A binary success response of this content type, written by the handler to `res` (documented only). */
  binary?: { contentType: string; description: string };
  /** Success status; 204 sends no body. */
  status?: 200 | 201 | 202 | 204;
  response?: R;
  responseDescription?: string;
  /** Error statuses beyond those implied by the spec (e.g. 409), with the standard error body. */
  errors?: number[];
  /** Other answers with a body of their own (e.g. health's 503). */
  alsoResponds?: { status: number; description: string; schema: AnySchema }[];
  /**
   * Routes without credentials: the per-address limit they count against (default `public`), or
   * false for none (health: load balancers poll it). Authenticated routes count per credential.
   */
  rateLimit?: AddressLimit | false;
  /**
   * False for a POST that neither creates nor sends anything lasting (checking a PDF, a test ping that
   * waits for an outside answer): it takes no Idempotency-Key, and holds no transaction open for one.
   */
  idempotent?: false;
}

/** Who a page is for: its CSRF cookie and, for staff, its sign-in. */
export type Audience = 'contact' | 'staff';

/** What pages need from the platform's browser plumbing. */
export interface WebKit {
  csrf: Record<Audience, CsrfGuard>;
  /** The staff sign-in page, where a browser that is not signed in is sent. */
  signInPath: string;
}

export interface PageSpec<P extends AnySchema, Q extends AnySchema, F extends AnySchema> {
  method?: 'get' | 'post';
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  audience: Audience;
  params?: P;
  /** Query parameters the page reads (others are ignored). */
  query?: Q;
  /** Form fields (POST); without it the handler reads `req.body` itself (dynamic field names). */
  form?: F;
  statuses: Record<number, string>;
  /** The HTML page for an error (bad form, body too large, unexpected): its status and plain message. */
  errorPage: (status: number, message: string) => string;
  /** The page when the CSRF token is missing or stale (default: a 403 error page). */
  csrfFailed?: () => { status: number; html: string };
  /**
   * A GET that starts something on the browser's behalf (a link carrying the page's token as `_csrf`):
   * checked like a form post, so another site cannot start it in the browser.
   */
  csrfOnGet?: boolean;
  /** The per-address limit the page counts against (default `public`; staff pages count none). */
  rateLimit?: AddressLimit | false;
}

export interface PageInput<P extends AnySchema, Q extends AnySchema, F extends AnySchema> {
  params: z.output<P>;
  query: z.output<Q>;
  form: z.output<F>;
  req: Request;
  res: Response;
  /** The nonce of this response's inline script. */
  nonce: string;
  /** The CSRF token for the page's forms (sets its cookie). */
  csrf: () => string;
}

export type PageResult = { status: number; html: string } | { redirect: string };

export interface HandlerInput<P extends AnySchema, Q extends AnySchema, B extends AnySchema> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  req: Request;
  res: Response;
}

/** What a handler answers: its schema's input, less `secretAlreadyShown` (the platform sets it). */
type Output<R extends AnySchema> = WithoutMarker<z.input<R>> | undefined;
type WithoutMarker<T> = T extends { [SECRET_ALREADY_SHOWN]: boolean }
  ? Omit<T, typeof SECRET_ALREADY_SHOWN>
  : T;

/**
 * Declares routes once: the Express pipeline (authenticate → validate → handler → JSON) and the
 * OpenAPI registration come from the same spec, so a documented route always exists and vice versa.
 */
export class Routes {
  constructor(
    private readonly router: Router,
    private readonly registry: OpenAPIRegistry,
    private readonly gate: AuthGate,
    private readonly basePath: string,
    /** Parses JSON bodies; mounted only on routes that take one. */
    private readonly bodyParser: RequestHandler,
    /** When set (tests), every response body is parsed with its schema: contract drift fails loudly. */
    private readonly checkResponses = false,
    /** Browser plumbing for pages (CSRF guards, where to sign in). */
    private readonly web?: WebKit,
    /** The rate limits; none when absent (a router built for a tool). */
    private readonly limits?: RateLimits,
    /** Stored answers of POSTs sent with an Idempotency-Key. */
    private readonly idempotency?: Idempotency,
  ) {}

  /**
   * Names the route for the metrics (`res.locals.route`): its documented path, such as
   * /api/v1/customers/{customerId}. The route is declared to the redaction (redaction.ts): the path
   * parameters its schema declares credentials are never logged, the URL's nor their values anywhere.
   */
  private named(method: string, path: string, params?: AnySchema): RequestHandler {
    const route = `${this.basePath}${path}`;
    const credentials = credentialParamsOf(params);
    declareRoute(method, route, credentials);
    return (req, res, next) => {
      res.locals.route = route;
      for (const name of credentials.keys()) redactValue(req.params[name]);
      next();
    };
  }

  /** The per-address limiter of a route without credentials, if any. */
  private byAddress(limit: AddressLimit | false | undefined): RequestHandler[] {
    if (!this.limits || limit === false) return [];
    return [this.limits.address(limit ?? 'public')];
  }

  /** An authenticated route requiring `permission`; the handler receives the request context. */
  add<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(
    spec: RouteSpec<P, Q, B, R> & {
      permission: Permission;
      /** The credentials it takes (default: the API key); browser sessions must also send the CSRF token. */
      accepts?: Credential[];
    },
    handler: (input: HandlerInput<P, Q, B> & { ctx: RequestContext }) => Promise<Output<R>>,
  ): void {
    const gate = this.gate.require(spec.permission, spec.accepts);
    const before = this.limits ? [this.limits.unauthenticated(gate), this.limits.caller()] : [gate];
    this.mount(spec, before, (input) => handler({ ...input, ctx: input.req.ctx as RequestContext }));
  }

  /** A route without authentication (health, the OpenAPI document). */
  public<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(spec: RouteSpec<P, Q, B, R>, handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>): void {
    this.mount(spec, this.byAddress(spec.rateLimit), handler);
  }

  /**
   * A machine endpoint that takes a form-urlencoded body and answers JSON with its own status and
   * headers (the OAuth token endpoint: RFC 6749 fixes the body type and the error shape). No CSRF (no
   * cookies are read) and no authentication here: the handler authenticates the client itself.
   */
  formEndpoint<F extends AnySchema, R extends AnySchema>(
    spec: {
      path: string;
      summary: string;
      description?: string;
      tags: string[];
      form: F;
      response: R;
      errors: { status: number; description: string; schema: AnySchema }[];
      rateLimit: AddressLimit;
    },
    handler: (input: {
      req: Request;
      res: Response;
    }) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
  ): void {
    this.registry.registerPath({
      method: 'post',
      path: this.basePath + spec.path,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      security: [],
      request: {
        body: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: spec.form as never } },
        },
      },
      responses: {
        200: { description: 'Success', content: { 'application/json': { schema: spec.response as never } } },
        // What the platform answers before the handler (a body it cannot read, a rate limit, an outage),
        // in the endpoint's own RFC 6749 shape.
        ...Object.fromEntries(
          [400, 413, 415, 429, 500, 503].map((status) => [
            status,
            {
              ...(status === 429 ? { headers: rateLimitHeaders } : {}),
              description: errorDescriptions[status] as string,
              content: { 'application/json': { schema: OAuthErrorBody as never } },
            },
          ]),
        ),
        ...Object.fromEntries(
          spec.errors.map((e) => [
            e.status,
            { description: e.description, content: { 'application/json': { schema: e.schema as never } } },
          ]),
        ),
      },
    });
    this.router.post(
      spec.path,
      this.named('post', spec.path),
      ...this.byAddress(spec.rateLimit),
      formParser,
      async (req: Request, res: Response) => {
        assertPlainInput(req.body ?? {}, 'body');
        const answer = await servingRequest(originOf(req), () => handler({ req, res }));
        const body =
          answer.status >= 400 && answer.body && typeof answer.body === 'object'
            ? { ...answer.body, requestId: req.id }
            : answer.body;
        sendOAuthJson(res, answer.status, body, answer.headers);
      },
      // Whatever fails before or around the handler (an unreadable or hostile body, a NUL, a rate
      // limit, an outage) is answered in the endpoint's RFC 6749 shape, not the API's.
      (err: unknown, req: Request, res: Response, _next: NextFunction) => {
        const error = settleError(err, req, res);
        if (!error) return;
        const code =
          error.status === 429 || error.status === 503
            ? 'temporarily_unavailable'
            : error.status >= 500
              ? 'server_error'
              : 'invalid_request';
        const detail = error.details?.[0];
        sendOAuthJson(res, error.status, {
          success: false,
          error: code,
          error_description: detail ? `${error.message} (${detail.field}: ${detail.message})` : error.message,
          code: error.status,
          requestId: req.id,
        });
      },
    );
  }

  /**
   * A server-rendered page (GET) or form target (POST, urlencoded) that anyone may open: the contact's
   * pages (their action code is their credential, checked by the handler) and the staff pages before
   * sign-in. See `mountPage` for what every page gets.
   */
  page<P extends AnySchema, Q extends AnySchema = z.ZodNever, F extends AnySchema = z.ZodNever>(
    spec: PageSpec<P, Q, F>,
    handler: (input: PageInput<P, Q, F>) => Promise<PageResult>,
  ): void {
    this.mountPage(spec, this.byAddress(spec.rateLimit), async (input) => handler(input));
  }

  /**
   * A staff page: needs a signed-in staff browser session (not an API key) with `permission`. A browser
   * that is not signed in (or whose session just ended) is sent to the sign-in page, which brings it back
   * here afterwards; a user without the permission gets the 403 page.
   */
  staffPage<P extends AnySchema, Q extends AnySchema = z.ZodNever, F extends AnySchema = z.ZodNever>(
    spec: PageSpec<P, Q, F> & { permission: Permission },
    handler: (input: PageInput<P, Q, F> & { ctx: RequestContext }) => Promise<PageResult>,
  ): void {
    this.mountPage({ ...spec, audience: 'staff' }, this.byAddress(spec.rateLimit ?? false), async (input) => {
      let ctx: RequestContext;
      try {
        ctx = await this.gate.contextOf(input.req, spec.permission, ['session']);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        const back = input.req.method === 'GET' ? input.req.originalUrl : '';
        const signIn = this.web?.signInPath ?? '/signin';
        const query = new URLSearchParams();
        if (back) query.set('next', back);
        if (err instanceof SessionEnded) query.set('ended', err.reason);
        return { redirect: query.size ? `${signIn}?${query}` : signIn };
      }
      return handler({ ...input, ctx });
    });
  }

  /**
   * Every page: helmet's security headers with the strict content security policy (scripts only with
   * the response's nonce), never cached or indexed; path, query (unknown parameters ignored: mail
   * clients add their own) and form fields validated with zod and checked to be plain data; on a POST
   * the audience's CSRF token is checked before the handler runs. Errors are answered as HTML pages.
   */
  private mountPage<P extends AnySchema, Q extends AnySchema, F extends AnySchema>(
    spec: PageSpec<P, Q, F>,
    limited: RequestHandler[],
    handler: (input: PageInput<P, Q, F>) => Promise<PageResult>,
  ): void {
    const method = spec.method ?? 'get';
    this.registry.registerPath({
      method,
      path: this.basePath + spec.path,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      security: 'permission' in spec ? [{ StaffSession: [] }] : [],
      request: {
        params: spec.params as never,
        query: spec.query as never,
        ...(method === 'post'
          ? {
              body: {
                required: true,
                content: {
                  'application/x-www-form-urlencoded': { schema: (spec.form ?? { type: 'object' }) as never },
                },
              },
            }
          : {}),
      },
      responses: Object.fromEntries(
        Object.entries({
          // Every page: a path, query or form field it cannot take is a 400 page; an outage a 503 page.
          400: 'A path, query parameter or form field is not valid (an HTML page saying which)',
          503: 'A dependency is unavailable (an HTML page asking to try again shortly)',
          500: 'Unexpected error (an HTML page; no internals are revealed)',
          ...('permission' in spec
            ? { 303: 'Not signed in (or the session ended): to the sign-in page' }
            : {}),
          ...(method === 'post'
            ? {
                413: 'The form is over the size limit (an HTML page)',
                415: 'The form is not sent as application/x-www-form-urlencoded (an HTML page)',
              }
            : {}),
          ...spec.statuses,
          ...(method === 'post' || spec.csrfOnGet
            ? { 403: 'The form’s CSRF token is missing or stale' }
            : {}),
          ...(limited.length
            ? { 429: 'Too many requests from this address: wait the `Retry-After` seconds' }
            : {}),
        }).map(([status, description]) => [
          status,
          status === '303'
            ? { description }
            : { description, content: { 'text/html': { schema: { type: 'string' } } } },
        ]),
      ),
    });
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const csrf = this.web?.csrf[spec.audience];
    const before = method === 'post' ? [pageHeaders, ...limited, formParser] : [pageHeaders, ...limited];
    this.router[method](
      expressPath,
      this.named(method, spec.path, spec.params),
      ...before,
      async (req: Request, res: Response) => {
        const params = (spec.params ? parse(spec.params, req.params, 'path') : {}) as z.output<P>;
        // Form fields and query parameters are plain data too (no __proto__, NUL, lone surrogates).
        assertPlainInput(req.query, 'query');
        const query = (spec.query ? parse(spec.query, req.query, 'query') : {}) as z.output<Q>;
        let form = {} as z.output<F>;
        if (method === 'post') assertPlainInput(req.body ?? {}, 'body');
        if (method === 'post' || spec.csrfOnGet) {
          if (csrf && !csrf.valid(req)) {
            const refused = spec.csrfFailed?.() ?? {
              status: 403,
              html: spec.errorPage(403, 'This form has expired. Go back, reload the page and try again.'),
            };
            sendPage(res, refused.status, refused.html);
            return;
          }
        }
        if (method === 'post' && spec.form) form = parse(spec.form, req.body ?? {}, 'body') as z.output<F>;
        const page = await servingRequest(originOf(req), () =>
          handler({
            params,
            query,
            form,
            req,
            res,
            nonce: nonceOf(res),
            csrf: () => csrf?.token(req, res) ?? '',
          }),
        );
        if ('redirect' in page) {
          res.redirect(303, page.redirect);
          return;
        }
        sendPage(res, page.status, withFormGuard(page.html, nonceOf(res)));
      },
      // A page answers in HTML, its errors too (a contact should never see a JSON error body).
      (err: unknown, req: Request, res: Response, _next: NextFunction) => {
        const error = settleError(err, req, res);
        if (!error) return;
        const message =
          error.status >= 500 ? 'Something went wrong on our side. Please try again later.' : error.message;
        if (!res.locals.cspNonce) res.locals.cspNonce = randomBytes(16).toString('base64');
        sendPage(res, error.status, spec.errorPage(error.status, message));
      },
    );
  }

  private mount<P extends AnySchema, Q extends AnySchema, B extends AnySchema, R extends AnySchema>(
    spec: RouteSpec<P, Q, B, R> & { permission?: Permission; accepts?: Credential[] },
    before: RequestHandler[],
    handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>,
  ): void {
    this.register(spec);
    const status = spec.status ?? 200;
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const querySchema = strictQuery(spec.query);
    const bodySchema = spec.body ?? NO_BODY;
    const takesBody = spec.method !== 'get' && !spec.multipart;
    // Most POSTs take an Idempotency-Key (docs/api.md#idempotent-requests).
    const idempotent = takesIdempotencyKey(spec);
    // Secrets shown once (platform/shown-once.ts): in the first answer only, never in a stored one.
    const secrets = shownOnceFields(spec.response);
    const run: RequestHandler = async (req, res) => {
      const params = parse(spec.params, req.params, 'path');
      const query = parseQuery(querySchema, req.query);
      let body: unknown;
      if (takesBody) {
        const sent = req.body;
        if (sent === undefined && spec.body && !spec.optionalBody) throw bodyRequired();
        body = parse(bodySchema, sent ?? {}, 'body');
      }
      const produce = async (): Promise<string | undefined> => {
        let result: unknown = await servingRequest(originOf(req), () =>
          handler({ params, query, body, req, res } as HandlerInput<P, Q, B>),
        );
        if (status === 204 || result === undefined || res.headersSent) return undefined;
        if (secrets.length > 0) result = { ...(result as object), [SECRET_ALREADY_SHOWN]: false };
        if (this.checkResponses && spec.response) {
          const checked = spec.response.safeParse(result);
          if (!checked.success) {
            throw new AppError(500, 'Response does not match its schema', undefined, {
              cause: checked.error,
            });
          }
        }
        return JSON.stringify(result);
      };
      const key = idempotent && req.ctx ? idempotencyKeyOf(req) : null;
      const answer =
        key && this.idempotency && req.ctx
          ? await this.idempotency.run(req.ctx, req, key, status, produce, secrets)
          : { status, body: await produce(), replayed: false };
      if (res.headersSent) return;
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      if (answer.body === undefined) {
        res.status(answer.status).end();
        return;
      }
      // Straight to node's response: one string, its length known, none of res.json's extra passes.
      res.statusCode = answer.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(answer.body);
    };
    this.router[spec.method](
      expressPath,
      this.named(spec.method, spec.path, spec.params),
      ...before,
      ...(takesBody ? [requireJsonBody, this.bodyParser] : []),
      run,
    );
  }

  private register(
    spec: RouteSpec<AnySchema, AnySchema, AnySchema, AnySchema> & {
      permission?: Permission;
      accepts?: Credential[];
    },
  ) {
    const status = spec.status ?? 200;
    const codes = new Set<number>([400, 500, 503, ...(spec.errors ?? [])]);
    if (this.limits && (spec.permission || spec.rateLimit !== false)) codes.add(429);
    if (spec.method !== 'get') {
      codes.add(413);
      codes.add(415);
    }
    if (spec.permission) {
      codes.add(401);
      codes.add(403);
    }
    if (spec.params) codes.add(404);
    const idempotent = takesIdempotencyKey(spec);
    if (idempotent) {
      codes.add(409);
      codes.add(422);
    }
    const responses: RouteConfig['responses'] = {
      [status]: spec.binary
        ? {
            description: spec.binary.description,
            content: { [spec.binary.contentType]: { schema: { type: 'string', format: 'binary' } } },
          }
        : {
            description: spec.responseDescription ?? 'Success',
            ...(idempotent ? { headers: replayedHeader } : {}),
            ...(spec.response && status !== 204
              ? { content: { 'application/json': { schema: spec.response } } }
              : {}),
          },
    };
    for (const code of [...codes].sort()) {
      responses[code] = {
        ...(code === 429 ? { headers: rateLimitHeaders } : {}),
        description:
          code === 409 && idempotent
            ? `${errorDescriptions[409]}; or a request with the same Idempotency-Key is still in progress (retry in a moment)`
            : (errorDescriptions[code] ?? 'Error'),
        content: { 'application/json': { schema: code === 401 || code === 403 ? AuthErrorBody : ErrorBody } },
      };
    }
    for (const other of spec.alsoResponds ?? []) {
      responses[other.status] = {
        description: other.description,
        content: { 'application/json': { schema: other.schema } },
      };
    }
    this.registry.registerPath({
      method: spec.method,
      path: this.basePath + spec.path,
      summary: spec.summary,
      description: withShownOnceNote(spec.description, shownOnceFields(spec.response), idempotent),
      tags: spec.tags,
      security: spec.permission
        ? (spec.accepts ?? API_CREDENTIALS).map(
            (c): Record<string, string[]> =>
              c === 'api_key'
                ? { ApiKey: [] }
                : c === 'bearer'
                  ? { OAuth2: [scopeFor(spec.permission as Permission)] }
                  : { StaffSession: [] },
          )
        : [],
      ...(spec.permission ? { 'x-oauth-scope': scopeFor(spec.permission) } : {}),
      request: {
        params: spec.params as never,
        query: spec.query as never,
        ...(idempotent ? { headers: IdempotencyHeader } : {}),
        body: spec.body
          ? { required: !spec.optionalBody, content: { 'application/json': { schema: spec.body } } }
          : spec.multipart
            ? {
                required: true,
                content: {
                  'multipart/form-data': {
                    schema: {
                      type: 'object',
                      required: [spec.multipart.field],
                      properties: {
                        [spec.multipart.field]: {
                          type: 'string',
                          format: 'binary',
                          description: spec.multipart.description,
                        },
                      },
                    },
                  },
                },
              }
            : undefined,
      },
      responses,
      ...(spec.permission ? { 'x-permission': spec.permission } : {}),
    });
  }
}

/** An operation's description, saying which of its answer's fields are secrets shown once. */
function withShownOnceNote(
  description: string | undefined,
  secrets: string[],
  idempotent: boolean,
): string | undefined {
  if (secrets.length === 0) return description;
  const names = secrets.map((s) => `\`${s}\``).join(', ');
  const note = idempotent
    ? `Shown once: ${names}. A replay of this request (the same Idempotency-Key) answers the same resource with ${secrets.length === 1 ? 'it' : 'them'} null and \`${SECRET_ALREADY_SHOWN}: true\`; the stored answer never holds ${secrets.length === 1 ? 'it' : 'them'} (docs/api.md#secrets-are-shown-once).`
    : `Shown once: ${names} (docs/api.md#secrets-are-shown-once).`;
  return description ? `${description}\n\n${note}` : note;
}

/** POSTs of authenticated routes take an Idempotency-Key, unless the route says it has no use for one. */
function takesIdempotencyKey(spec: {
  method: Method;
  permission?: Permission;
  binary?: unknown;
  idempotent?: false;
}): boolean {
  return spec.method === 'post' && Boolean(spec.permission) && !spec.binary && spec.idempotent !== false;
}

const originOf = (req: Request): Origin => ({
  requestId: String(req.id),
  address: clientAddress(req),
});

/** True when the request carries a body (a length above 0, or chunked). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The content types JSON routes read (application/json, and types such as application/merge-patch+json). */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * The JSON body reader of every API route: it reads exactly the types `requireJsonBody` lets through,
 * so a body that reaches a route is either read or refused, never skipped and taken for none.
 */
export function jsonBodyParser(limit: string): RequestHandler {
  return express.json({ limit, type: JSON_TYPES });
}

/** A body sent to a JSON route must say it is JSON; nothing else is read and then ignored. */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (hasBody(req) && !req.is(JSON_TYPES)) {
    throw new UnsupportedMediaType(
      `Unsupported Content-Type ${JSON.stringify(String(req.headers['content-type'] ?? '(none)').slice(0, 100))}: send the body as application/json`,
    );
  }
  next();
};

const bodyRequired = () =>
  invalid('body', [
    { field: '(body)', in: 'body', message: 'a JSON body is required (Content-Type: application/json)' },
  ]);

/** Query schemas refuse parameters they do not name, so a typo is a 400 instead of an unfiltered list. */
function strictQuery(schema: AnySchema | undefined): AnySchema {
  if (!schema) return NO_QUERY;
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

/** Parses the query; a parameter given more than once where one value is expected is named plainly. */
function parseQuery(schema: AnySchema, value: Record<string, unknown>): unknown {
  assertPlainInput(value, 'query');
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const name = issue.path[0];
    const repeated = typeof name === 'string' && Object.hasOwn(value, name) && Array.isArray(value[name]);
    return repeated && issue.code !== 'unrecognized_keys'
      ? { ...issue, message: 'is given more than once: give it once' }
      : issue;
  });
  throw fromZodError(new z.ZodError(issues), 'query');
}

/**
 * A form is sent once: a second click (or Enter) on a form already on its way does nothing, so an
 * impatient double-click never creates two users or two keys. The form can be sent again after a few
 * seconds (a lost connection), and when the browser brings the page back from its history.
 */
const FORM_GUARD = `document.addEventListener('submit',function(e){var f=e.target;if(e.defaultPrevented)return;if(f.dataset.sent){e.preventDefault();return}f.dataset.sent='1';setTimeout(function(){delete f.dataset.sent},5000)});addEventListener('pageshow',function(){document.querySelectorAll('form[data-sent]').forEach(function(f){delete f.dataset.sent})});`;

/** A page with a form that posts gets the guard above (run with the response's nonce). */
function withFormGuard(html: string, nonce: string): string {
  if (!/<form[^>]*method="post"/i.test(html) || !html.includes('</body>')) return html;
  return html.replace('</body>', `<script nonce="${nonce}">${FORM_GUARD}</script>\n</body>`);
}

/** Sends a page; its security headers were set by `pageHeaders`. */
function sendPage(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(html);
}

function parse<S extends AnySchema>(schema: S | undefined, value: unknown, location: Location): unknown {
  if (!schema) return undefined;
  assertPlainInput(value, location);
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, location);
  return result.data;
}
