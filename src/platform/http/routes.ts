import { randomBytes } from 'node:crypto';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import express from 'express';
import { z } from '../zod';
import './request';
import type { RequestContext } from '../context';
import { AppError, UnsupportedMediaType } from '../errors';
import { AuthErrorBody, ErrorBody, type OpenAPIRegistry } from '../openapi';
import type { Permission } from '../permissions';
import type { AuthGate } from './auth';
import { settleError } from './error-handler';
import { assertPlainInput } from './plain-input';
import { fromZodError, invalid, type Location } from './validation';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a route that declares no body accepts: nothing, or an empty JSON object. */
const NO_BODY = z.strictObject({});
/** What a route that declares no query accepts. */
const NO_QUERY = z.strictObject({});

/** Form posts of the public pages: small, flat (no nested objects). */
const formParser = express.urlencoded({ extended: false, limit: '200kb', parameterLimit: 1000 });
type AnySchema = z.ZodType;

const errorDescriptions: Record<number, string> = {
  400: 'Invalid input; `details` names each failing field',
  401: 'Missing, malformed, unknown or revoked credentials, or the user no longer exists',
  403: 'The user is deactivated or lacks the permission',
  404: 'Unknown id, or an id of another organisation',
  409: 'Conflicts with the current state',
  410: 'Existed, but can no longer be used (expired or used up)',
  413: 'Request body over the size limit',
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
}

export interface HandlerInput<P extends AnySchema, Q extends AnySchema, B extends AnySchema> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  req: Request;
  res: Response;
}

type Output<R extends AnySchema> = z.input<R> | undefined;

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
  ) {}

  /** An authenticated route requiring `permission`; the handler receives the request context. */
  add<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(
    spec: RouteSpec<P, Q, B, R> & { permission: Permission },
    handler: (input: HandlerInput<P, Q, B> & { ctx: RequestContext }) => Promise<Output<R>>,
  ): void {
    this.mount(spec, [this.gate.require(spec.permission)], (input) =>
      handler({ ...input, ctx: input.req.ctx as RequestContext }),
    );
  }

  /** A route without authentication (health, the OpenAPI document). */
  public<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(spec: RouteSpec<P, Q, B, R>, handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>): void {
    this.mount(spec, [], handler);
  }

  /**
   * A public server-rendered page (GET) or form target (POST, urlencoded): the handler answers a status
   * and HTML, or a 303 redirect; `statuses` documents every status it may answer. Pages are never
   * cached or indexed, and scripts run only with the per-response `nonce`.
   */
  page<P extends AnySchema>(
    spec: {
      method?: 'get' | 'post';
      path: string;
      summary: string;
      description?: string;
      tags: string[];
      params: P;
      statuses: Record<number, string>;
      /** The HTML page for an error (bad form, body too large, unexpected): its status and plain message. */
      errorPage: (status: number, message: string) => string;
    },
    handler: (input: {
      params: z.output<P>;
      req: Request;
      res: Response;
      nonce: string;
    }) => Promise<{ status: number; html: string } | { redirect: string }>,
  ): void {
    const method = spec.method ?? 'get';
    this.registry.registerPath({
      method,
      path: this.basePath + spec.path,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      security: [],
      request: {
        params: spec.params as never,
        ...(method === 'post'
          ? {
              body: {
                required: true,
                content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
              },
            }
          : {}),
      },
      responses: Object.fromEntries(
        Object.entries(spec.statuses).map(([status, description]) => [
          status,
          status === '303'
            ? { description }
            : { description, content: { 'text/html': { schema: { type: 'string' } } } },
        ]),
      ),
    });
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const before = method === 'post' ? [formParser] : [];
    this.router[method](
      expressPath,
      ...before,
      async (req: Request, res: Response) => {
        const params = parse(spec.params, req.params, 'path') as z.output<P>;
        // Form fields and query parameters are plain data too (no __proto__, NUL, lone surrogates).
        assertPlainInput(req.query, 'query');
        if (method === 'post') assertPlainInput(req.body ?? {}, 'body');
        const nonce = randomBytes(16).toString('base64');
        const page = await handler({ params, req, res, nonce });
        if ('redirect' in page) {
          pageHeaders(res);
          res.redirect(303, page.redirect);
          return;
        }
        sendPage(res, page.status, page.html, nonce);
      },
      // A page answers in HTML, its errors too (a contact should never see a JSON error body).
      (err: unknown, req: Request, res: Response, _next: NextFunction) => {
        const error = settleError(err, req, res);
        if (!error) return;
        const message =
          error.status >= 500 ? 'Something went wrong on our side. Please try again later.' : error.message;
        sendPage(
          res,
          error.status,
          spec.errorPage(error.status, message),
          randomBytes(16).toString('base64'),
        );
      },
    );
  }

  private mount<P extends AnySchema, Q extends AnySchema, B extends AnySchema, R extends AnySchema>(
    spec: RouteSpec<P, Q, B, R> & { permission?: Permission },
    before: RequestHandler[],
    handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>,
  ): void {
    this.register(spec);
    const status = spec.status ?? 200;
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const querySchema = strictQuery(spec.query);
    const bodySchema = spec.body ?? NO_BODY;
    const takesBody = spec.method !== 'get' && !spec.multipart;
    const run: RequestHandler = async (req, res) => {
      const params = parse(spec.params, req.params, 'path');
      const query = parseQuery(querySchema, req.query);
      let body: unknown;
      if (takesBody) {
        const sent = req.body;
        if (sent === undefined && spec.body && !spec.optionalBody) throw bodyRequired();
        body = parse(bodySchema, sent ?? {}, 'body');
      }
      const result = await handler({ params, query, body, req, res } as HandlerInput<P, Q, B>);
      if (res.headersSent) return;
      if (status === 204 || result === undefined) {
        res.status(status).end();
        return;
      }
      if (this.checkResponses && spec.response) {
        const checked = spec.response.safeParse(result);
        if (!checked.success) {
          throw new AppError(500, 'Response does not match its schema', undefined, { cause: checked.error });
        }
      }
      // Straight to node's response: one string, its length known, none of res.json's extra passes.
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(result));
    };
    this.router[spec.method](
      expressPath,
      ...before,
      ...(takesBody ? [requireJsonBody, this.bodyParser] : []),
      run,
    );
  }

  private register(
    spec: RouteSpec<AnySchema, AnySchema, AnySchema, AnySchema> & { permission?: Permission },
  ) {
    const status = spec.status ?? 200;
    const codes = new Set<number>([400, 500, 503, ...(spec.errors ?? [])]);
    if (spec.method !== 'get') {
      codes.add(413);
      codes.add(415);
    }
    if (spec.permission) {
      codes.add(401);
      codes.add(403);
    }
    if (spec.params) codes.add(404);
    const responses: RouteConfig['responses'] = {
      [status]: spec.binary
        ? {
            description: spec.binary.description,
            content: { [spec.binary.contentType]: { schema: { type: 'string', format: 'binary' } } },
          }
        : {
            description: spec.responseDescription ?? 'Success',
            ...(spec.response && status !== 204
              ? { content: { 'application/json': { schema: spec.response } } }
              : {}),
          },
    };
    for (const code of [...codes].sort()) {
      responses[code] = {
        description: errorDescriptions[code] ?? 'Error',
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
      description: spec.description,
      tags: spec.tags,
      security: spec.permission ? [{ ApiKey: [] }] : [],
      request: {
        params: spec.params as never,
        query: spec.query as never,
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

/** Headers of every page: never cached or indexed, no referrer. */
function pageHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** Sends a page with the strict content security policy: scripts run only with the response's nonce. */
function sendPage(res: Response, status: number, html: string, nonce: string): void {
  pageHeaders(res);
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.end(html);
}

function parse<S extends AnySchema>(schema: S | undefined, value: unknown, location: Location): unknown {
  if (!schema) return undefined;
  assertPlainInput(value, location);
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, location);
  return result.data;
}
