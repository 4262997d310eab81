import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Credential } from '../kernel/context';
import type { Permission } from '../kernel/permissions';
import { z } from '../kernel/zod';
import { API_CREDENTIALS, scopeFor } from './auth';
import { FIELD_MAX_BYTES } from './multipart';
import { AuthErrorBody, ErrorBody, OAuthErrorBody, type OpenAPIRegistry } from './openapi';
import type { AnySchema, FormEndpointSpec, Method, PageSpec, RouteSpec, UploadSpec } from './route-spec';
import { SECRET_ALREADY_SHOWN, shownOnceFields } from './shown-once';

// The OpenAPI entries of routes, pages and form endpoints, made from the same specs their pipelines are
// (routes.ts): a documented route always exists, and answers as documented.

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

/** The OpenAPI entry of an API route: its security, parameters, body, success answer and every error. */
export function documentRoute(
  registry: OpenAPIRegistry,
  basePath: string,
  spec: RouteSpec<AnySchema, AnySchema, AnySchema, AnySchema> & {
    permission?: Permission;
    accepts?: Credential[];
  },
  rateLimited: boolean,
): void {
  const status = spec.status ?? 200;
  const codes = new Set<number>([400, 500, 503, ...(spec.errors ?? [])]);
  if (rateLimited && (spec.permission || spec.rateLimit !== false)) codes.add(429);
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
          content: Object.fromEntries(
            [spec.binary.contentType, ...(spec.binary.alsoContentTypes ?? [])].map((type) => [
              type,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
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
  registry.registerPath({
    method: spec.method,
    path: basePath + spec.path,
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
          ? { required: true, content: oneFileContent(spec.multipart) }
          : undefined,
    },
    responses,
    ...(spec.permission ? { 'x-permission': spec.permission } : {}),
  });
}

/** A multipart/form-data body holding one file, in `field`, and the text fields the route names. */
function oneFileContent(file: UploadSpec) {
  const texts = Object.entries(file.fields ?? {}).map(([name, description]) => [
    name,
    { type: 'string' as const, description: `${description} (at most ${FIELD_MAX_BYTES} bytes in UTF-8)` },
  ]);
  return {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        required: [file.field],
        properties: {
          [file.field]: { type: 'string' as const, format: 'binary', description: file.description },
          ...Object.fromEntries(texts),
        },
      },
    },
  };
}

/** The OpenAPI entry of a page: HTML answers, its form, and the statuses every page may answer. */
export function documentPage(
  registry: OpenAPIRegistry,
  basePath: string,
  spec: PageSpec<AnySchema, AnySchema, AnySchema>,
  rateLimited: boolean,
): void {
  const method = spec.method ?? 'get';
  const documentedForm = spec.documentForm === false ? undefined : spec.form;
  registry.registerPath({
    method,
    path: basePath + spec.path,
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
              content: spec.upload
                ? oneFileContent(spec.upload)
                : {
                    'application/x-www-form-urlencoded': {
                      schema: (documentedForm ?? { type: 'object' }) as never,
                    },
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
        ...('permission' in spec ? { 303: 'Not signed in (or the session ended): to the sign-in page' } : {}),
        ...(method === 'post'
          ? {
              413: 'The form is over the size limit (an HTML page)',
              415: spec.upload
                ? 'The form is not sent as multipart/form-data (an HTML page)'
                : 'The form is not sent as application/x-www-form-urlencoded (an HTML page)',
            }
          : {}),
        ...spec.statuses,
        ...(method === 'post' || spec.csrfOnGet ? { 403: 'The form’s CSRF token is missing or stale' } : {}),
        ...(rateLimited
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
}

/** The OpenAPI entry of a form endpoint (OAuth): a form in, JSON out, errors in RFC 6749's shape. */
export function documentFormEndpoint(
  registry: OpenAPIRegistry,
  basePath: string,
  spec: FormEndpointSpec,
): void {
  registry.registerPath({
    method: 'post',
    path: basePath + spec.path,
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
export function takesIdempotencyKey(spec: {
  method: Method;
  permission?: Permission;
  binary?: unknown;
  idempotent?: false;
}): boolean {
  return spec.method === 'post' && Boolean(spec.permission) && !spec.binary && spec.idempotent !== false;
}
