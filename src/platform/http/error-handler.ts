import './request';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { isDatabaseBusy, isDatabaseUnavailable, pgErrorCode } from '../db/errors';
import { StorageUnavailable } from '../files/storage';
import {
  AppError,
  BadRequest,
  InsufficientScope,
  InvalidToken,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  UnsupportedMediaType,
} from '../kernel/errors';
import { fromZodError } from './validation';

interface HttpishError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
  limit?: number;
}

/** Maps anything thrown on the request path onto an AppError; unknown errors become a bare 500. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZodError(err, 'body');
  const e = err as HttpishError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new BadRequest('Malformed JSON in request body', [
        { field: '(body)', in: 'body', message: 'is not valid JSON' },
      ]);
    case 'entity.too.large':
      return new PayloadTooLarge(`Request body too large: the limit is ${e.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaType(e.message ?? 'Unsupported request body encoding');
  }
  // The router could not percent-decode a path segment (e.g. `/customers/%zz`).
  if (err instanceof URIError || (e?.status === 400 && /decode param/i.test(e.message ?? ''))) {
    return new BadRequest('Invalid path: a segment is not valid percent-encoding', [
      {
        field: '(path)',
        in: 'path',
        message: 'is not valid percent-encoding (a % must be followed by two hex digits)',
      },
    ]);
  }
  // Before the database's check: a store that cannot be reached fails with the same network codes.
  if (err instanceof StorageUnavailable)
    return new ServiceUnavailable('The file store is not available; try again shortly', { cause: err });
  if (isDatabaseUnavailable(err)) {
    return new ServiceUnavailable(
      isDatabaseBusy(err)
        ? 'The database is busy: too many requests are waiting; try again shortly'
        : 'The database is not available; try again shortly',
      { cause: err },
    );
  }
  const code = pgErrorCode(err);
  if (code === '22P05' || code === '22021')
    return new BadRequest('A value contains characters that cannot be stored', [
      { field: '(body)', in: 'body', message: 'contains characters that cannot be stored' },
    ]);
  // A value the database cannot represent (a number or date out of its range): the client's input,
  // which the route's own checks should have named; never a 500.
  if (code === '22003' || code === '22007' || code === '22008')
    return new BadRequest('A value is out of the range the service can store', [
      { field: '(request)', in: 'body', message: 'holds a number or date out of range' },
    ]);
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new AppError(e.status, e.message ?? 'Bad request');
  }
  return new AppError(500, 'Internal server error', undefined, { cause: err });
}

/**
 * What every error answer starts with, whatever its body (JSON here, HTML on pages): the error as an
 * AppError, logged when it is ours (5xx), and its Retry-After header; null when the response has
 * already begun (the connection is then cut, so the client never takes half an answer for a whole one).
 */
export function settleError(err: unknown, req: Request, res: Response): AppError | null {
  const appError = toAppError(err);
  if (appError.status === 503) req.log?.warn({ err }, 'service unavailable');
  else if (appError.status >= 500) req.log?.error({ err }, 'unexpected error');
  if (res.headersSent) {
    res.destroy();
    return null;
  }
  if (appError instanceof TooManyRequests) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (appError instanceof ServiceUnavailable) res.setHeader('Retry-After', '5');
  if (appError instanceof InvalidToken || appError instanceof InsufficientScope) {
    res.setHeader('WWW-Authenticate', appError.wwwAuthenticate);
  }
  return appError;
}

/** The one error middleware of the API: turns every error into the spec's bodies and hides internals. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = settleError(err, req, res);
  if (!appError) return;
  const body: Record<string, unknown> = { success: false, error: appError.message };
  if (appError.isAuthFailure) body.code = appError.status;
  else body.status = appError.status;
  // One shape whatever the status (docs/api.md#errors): `details` is always there, empty if need be.
  body.details = appError.details ?? [];
  body.requestId = req.id;
  res.status(appError.status).json(body);
};

export const unknownRoute: RequestHandler = (req) => {
  throw new NotFound(`No route for ${req.method} ${req.path}`);
};

/** What a documented path (`/api/v1/customers/{customerId}`) matches: each `{name}` one segment. */
export function documentedPathPattern(path: string): RegExp {
  return new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
  );
}

/**
 * 405 with `Allow` for a method a documented path does not take (DELETE on a list, PUT anywhere but a
 * password): `paths` are the documented ones (`/api/v1/customers/{customerId}`) with their methods.
 * Runs after every router, so only requests no route took reach it.
 */
export function methodNotAllowed(paths: () => Iterable<{ path: string; method: string }>): RequestHandler {
  let table: { pattern: RegExp; methods: Set<string> }[] | undefined;
  const build = () => {
    const byPath = new Map<string, Set<string>>();
    for (const { path, method } of paths()) {
      const methods = byPath.get(path) ?? new Set<string>();
      methods.add(method.toUpperCase());
      if (method === 'get') methods.add('HEAD');
      byPath.set(path, methods);
    }
    return [...byPath].map(([path, methods]) => ({
      pattern: documentedPathPattern(path),
      methods,
    }));
  };
  return (req, res, next) => {
    table ??= build();
    const allowed = new Set<string>();
    for (const { pattern, methods } of table)
      if (pattern.test(req.path)) for (const m of methods) allowed.add(m);
    if (allowed.size === 0 || allowed.has(req.method)) {
      next();
      return;
    }
    const allow = [...allowed].sort().join(', ');
    res.setHeader('Allow', allow);
    throw new AppError(405, `Method ${req.method} is not allowed on ${req.path}: it takes ${allow}`);
  };
}
