// What @actiondesk/client covers of the OpenAPI document, and what its methods are called: read by the
// generator (client-codegen.ts). Pure functions of the document, so the output depends on nothing else.

export type Schema = { $ref?: string; type?: string | string[]; [key: string]: unknown };
interface Media {
  schema?: Schema;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}
export interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post?: Operation }>;
  components?: { schemas?: Record<string, Schema> };
}

/** One API operation as the client sees it. */
export interface ApiOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  group: string;
  /** The method's name in its group (`client.customers.list`). */
  name: string;
  pathParams: string[];
  query: { names: string[]; required: boolean } | null;
  body: { kind: 'json' | 'form' | 'multipart'; required: boolean; schema: Schema } | null;
  /** The success status and whether it has a JSON body. */
  success: { status: string; json: boolean };
  /** Sends credentials (API key or bearer token); the OAuth endpoints authenticate the client instead. */
  auth: boolean;
  /** Declares the Idempotency-Key header: the client sends one per call, the same on every retry. */
  idempotent: boolean;
  /** A list paged by cursor: the items' property of the answer (null: the answer is the array). */
  list: { items: string | null; byPage: boolean; sync: boolean } | null;
}

const API_PREFIX = '/api/v1/';
const BODY_KINDS = {
  'application/json': 'json',
  'application/x-www-form-urlencoded': 'form',
  'multipart/form-data': 'multipart',
} as const;

/**
 * The groups (`client.<group>.<method>`), by the path under /api/v1 they start with, and the nouns a
 * method name drops in that group: `listCustomers` → `customers.list`, `listUserApiKeys` →
 * `users.listApiKeys`, `oauthToken` → `oauth.token`. A group without nouns keeps the operationIds.
 * Paths not listed here are grouped by their first segment (after `admin/`, `bc/` and `auth/`), in
 * camelCase, and keep their operationIds.
 */
const GROUPS: { prefix: string; group: string; nouns: string[] }[] = [
  { prefix: 'customers', group: 'customers', nouns: ['Customers', 'Customer'] },
  { prefix: 'portfolios', group: 'portfolios', nouns: ['Portfolios', 'Portfolio'] },
  { prefix: 'admin/rate-limits', group: 'rateLimits', nouns: ['RateLimits'] },
  { prefix: 'admin/organisation', group: 'organisation', nouns: ['Organisation'] },
  { prefix: 'admin/users', group: 'users', nouns: ['Users', 'User'] },
  { prefix: 'admin/apikeys', group: 'apiKeys', nouns: ['ApiKeys'] },
  { prefix: 'admin/oauth', group: 'oauth', nouns: ['OAuth'] },
  { prefix: 'auth/oauth', group: 'oauth', nouns: ['OAuth'] },
  { prefix: 'admin/sso', group: 'sso', nouns: ['Sso'] },
  { prefix: 'audit-events', group: 'auditEvents', nouns: ['AuditEvents'] },
  { prefix: 'questionlists', group: 'questionLists', nouns: ['QuestionLists', 'QuestionList'] },
  { prefix: 'files', group: 'files', nouns: ['Files', 'File'] },
  { prefix: 'sessions', group: 'sessions', nouns: ['Sessions', 'Session'] },
  { prefix: 'sessionrequests', group: 'sessionRequests', nouns: ['SessionRequests', 'SessionRequest'] },
  { prefix: 'quicksigningsetup', group: 'setups', nouns: [] },
  { prefix: 'bc/actionsetup', group: 'setups', nouns: [] },
  { prefix: 'events', group: 'events', nouns: ['Events', 'Event'] },
  { prefix: 'webhooks', group: 'webhooks', nouns: ['Webhooks', 'Webhook'] },
  { prefix: 'test/messages', group: 'testMessages', nouns: ['TestMessages', 'TestMessage'] },
  { prefix: 'test', group: 'test', nouns: ['TestSessionRequest', 'Test'] },
  { prefix: 'openapi.json', group: 'meta', nouns: [] },
];

/** Lists whose `updatedSince` filters a look back (newest first) rather than syncing: no `sync` helper. */
const NOT_SYNCED = new Set(['listAuditEvents']);

const camel = (words: string) =>
  words
    .replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase())
    .replace(/^[A-Z]/, (c) => c.toLowerCase());

function groupOf(path: string): { group: string; nouns: string[] } {
  const rest = path.slice(API_PREFIX.length);
  const known = GROUPS.find((g) => rest === g.prefix || rest.startsWith(`${g.prefix}/`));
  if (known) return known;
  const first = rest.split('/').find((s) => !['admin', 'bc', 'auth'].includes(s)) ?? 'api';
  return { group: camel(first), nouns: [] };
}

/** The operationId without the group's noun (at a word boundary), or the operationId itself. */
export function methodName(operationId: string, nouns: string[]): string {
  for (const noun of nouns) {
    const lower = operationId.toLowerCase();
    for (
      let at = lower.indexOf(noun.toLowerCase());
      at >= 0;
      at = lower.indexOf(noun.toLowerCase(), at + 1)
    ) {
      const end = at + noun.length;
      const startsWord = at === 0 || operationId.slice(at, at + 1) === noun.slice(0, 1);
      const endsWord = end === operationId.length || /[A-Z]/.test(operationId.charAt(end));
      if (!startsWord || !endsWord) continue;
      const rest = operationId.slice(0, at) + operationId.slice(end);
      if (rest) return rest.charAt(0).toLowerCase() + rest.slice(1);
    }
  }
  return operationId;
}

const answersHtml = (operation: Operation) =>
  Object.values(operation.responses ?? {}).some((r) => r.content && 'text/html' in r.content);

/** Follows a local `$ref` to its schema. */
export function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name];
}

function listOf(document: OpenApiDocument, id: string, query: string[], answer: Schema | undefined) {
  if (!query.includes('startingAfter') || !answer) return null;
  const sync = query.includes('updatedSince') && !NOT_SYNCED.has(id);
  const byPage = query.includes('page');
  // A bare array (GET /questionlists) carries its cursor in the Next-Cursor and Has-More headers.
  if (answer.type === 'array') return { items: null, byPage, sync };
  const props = (answer.properties ?? {}) as Record<string, Schema>;
  if (!('nextCursor' in props)) return null;
  const arrays = Object.keys(props).filter((k) => resolve(document, props[k])?.type === 'array');
  if (arrays.length !== 1) throw new Error(`${id}: a cursor list needs exactly one array property`);
  return { items: arrays[0] as string, byPage, sync };
}

function operationOf(document: OpenApiDocument, path: string, method: string, op: Operation): ApiOperation {
  const id = op.operationId;
  if (!id) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
  const params = op.parameters ?? [];
  const query = params.filter((p) => p.in === 'query');
  const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const bodyType = Object.keys(op.requestBody?.content ?? {})[0];
  let body: ApiOperation['body'] = null;
  if (bodyType) {
    const kind = BODY_KINDS[bodyType as keyof typeof BODY_KINDS];
    if (!kind) throw new Error(`${id}: request body of type ${bodyType} is not supported`);
    const schema = op.requestBody?.content?.[bodyType]?.schema ?? {};
    body = { kind, required: op.requestBody?.required === true, schema };
  }
  const status = Object.keys(op.responses ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  if (!status) throw new Error(`${id}: no success answer`);
  const answer = op.responses?.[status]?.content?.['application/json'];
  const { group, nouns } = groupOf(path);
  return {
    id,
    method,
    path,
    summary: op.summary ?? id,
    group,
    name: methodName(id, nouns),
    pathParams,
    query: query.length ? { names: query.map((p) => p.name), required: query.some((p) => p.required) } : null,
    body,
    success: { status, json: Boolean(answer) },
    auth: (op.security ?? []).some((s) => 'ApiKey' in s || 'OAuth2' in s),
    idempotent: params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
    list:
      method === 'get'
        ? listOf(
            document,
            id,
            query.map((p) => p.name),
            resolve(document, answer?.schema),
          )
        : null,
  };
}

/**
 * The operations of the JSON API (under /api/v1), in the document's order; the pages (HTML, named
 * `…Page`) are left out. Throws when two methods of a group would share a name.
 */
export function apiOperations(document: OpenApiDocument): ApiOperation[] {
  const operations: ApiOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(API_PREFIX)) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (answersHtml(op) || /Page$/.test(op.operationId ?? '')) continue;
      operations.push(operationOf(document, path, method, op));
    }
  }
  const seen = new Map<string, string>();
  for (const op of operations) {
    const names = [op.name, ...(op.list?.sync ? [syncName(op)] : [])];
    for (const name of names) {
      const key = `${op.group}.${name}`;
      const taken = seen.get(key);
      if (taken)
        throw new Error(`client.${key} would be both ${taken} and ${op.id}: name one of them in GROUPS`);
      seen.set(key, op.id);
    }
  }
  return operations;
}

/** The sync helper's name in its group: `list` → `sync`, `listApiKeys` → `syncApiKeys`. */
export const syncName = (op: ApiOperation) => op.name.replace(/^list/, 'sync');
