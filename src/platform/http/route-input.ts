import type { Request, RequestHandler } from 'express';
import express from 'express';
import type { Origin } from '../kernel/context';
import { UnsupportedMediaType } from '../kernel/errors';
import { z } from '../kernel/zod';
import { clientAddress } from './address';
import { assertPlainInput } from './plain-input';
import type { AnySchema } from './route-spec';
import { fromZodError, invalid, type Location } from './validation';

// How a route reads what a request sends: path, query, JSON body, form; all checked to be plain data.

/** What a route that declares no body accepts: nothing, or an empty JSON object. */
export const NO_BODY = z.strictObject({});
/** What a route that declares no query accepts. */
const NO_QUERY = z.strictObject({});

/** Form posts of the public pages: small, flat (no nested objects). */
export const formParser = express.urlencoded({ extended: false, limit: '200kb', parameterLimit: 1000 });

export const originOf = (req: Request): Origin => ({
  requestId: String(req.id),
  address: clientAddress(req),
  languages: req.headers['accept-language'] ? req.acceptsLanguages() : [],
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
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (hasBody(req) && !req.is(JSON_TYPES)) {
    throw new UnsupportedMediaType(
      `Unsupported Content-Type ${JSON.stringify(String(req.headers['content-type'] ?? '(none)').slice(0, 100))}: send the body as application/json`,
    );
  }
  next();
};

export const bodyRequired = () =>
  invalid('body', [
    { field: '(body)', in: 'body', message: 'a JSON body is required (Content-Type: application/json)' },
  ]);

/** Query schemas refuse parameters they do not name, so a typo is a 400 instead of an unfiltered list. */
export function strictQuery(schema: AnySchema | undefined): AnySchema {
  if (!schema) return NO_QUERY;
  return schema instanceof z.ZodObject ? schema.strict() : schema;
}

/** Parses the query; a parameter given more than once where one value is expected is named plainly. */
export function parseQuery(schema: AnySchema, value: Record<string, unknown>): unknown {
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

/** Parses a path, query or body with its schema, after checking it is plain data. */
export function parse<S extends AnySchema>(
  schema: S | undefined,
  value: unknown,
  location: Location,
): unknown {
  if (!schema) return undefined;
  assertPlainInput(value, location);
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, location);
  return result.data;
}
