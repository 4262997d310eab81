import { AsyncLocalStorage } from 'node:async_hooks';
import type { z } from '../kernel/zod';

/**
 * Credentials never reach a log, the audit trail or an error report (docs/security.md). One list, by
 * kind: path parameters are declared credentials where their route is declared (`credential()` on the
 * parameter's schema); query parameters are credentials by name. Everything that writes a URL or an
 * error somewhere lasting takes it from here.
 */

/** Query parameters whose values are never written anywhere: credentials, and personal data in sign-in hints. */
export const CREDENTIAL_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'client_assertion',
  'api_key',
  'apikey',
  'key',
  'code',
  'code_verifier',
  'password',
  'secret',
  'state',
  '_csrf',
  'email',
  'login_hint',
]);

const kinds = new WeakMap<z.ZodType, string>();

/**
 * Marks a path parameter's schema as a credential of `kind` (an action's link, a password link): whoever
 * holds the value can act with it. The route's URL is then written `[redacted]` at that place in every
 * log line, and the value is taken out of whatever else is logged while the request is served.
 */
export function credential<T extends z.ZodType>(schema: T, kind: string): T {
  kinds.set(schema, kind);
  return schema;
}

/** The kind of credential a schema was declared as, if any. */
export function credentialKind(schema: unknown): string | undefined {
  return schema && typeof schema === 'object' ? kinds.get(schema as z.ZodType) : undefined;
}

/** The credential path parameters of a params schema (a zod object), by name. */
export function credentialParamsOf(params: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const shape = (params as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (!shape) return out;
  for (const [name, schema] of Object.entries(shape)) {
    const kind = credentialKind(schema);
    if (kind) out.set(name, kind);
  }
  return out;
}

/** A declared route with a credential in its path. */
export interface CredentialRoute {
  method: string;
  /** The documented path, e.g. `/password/{token}`. */
  path: string;
  /** Parameter name → kind of credential. */
  params: ReadonlyMap<string, string>;
}

interface PathRule {
  pattern: RegExp;
  replacement: string;
}

const routes = new Map<string, CredentialRoute>();
/** Every documented path declared (credential or not): a literal sibling is never taken for a credential. */
const paths = new Set<string>();
let rules: PathRule[] | null = null;

/** Every route declared so far that carries a credential in its path (what the redaction test walks). */
export function credentialRoutes(): CredentialRoute[] {
  return [...routes.values()];
}

/**
 * Records a declared route: its documented path (with `{name}` parameters) and which of its parameters
 * are credentials. The URL rule covers the path and anything below it, so `/password/{token}/x` is
 * redacted too, but not a literal sibling such as `/password/forgot`.
 */
export function declareRoute(method: string, path: string, credentials: ReadonlyMap<string, string>): void {
  if (paths.has(path) && credentials.size === 0) return;
  paths.add(path);
  rules = null;
  if (credentials.size > 0)
    routes.set(`${method.toUpperCase()} ${path}`, {
      method: method.toUpperCase(),
      path,
      params: credentials,
    });
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const paramOf = (segment: string) => /^\{(\w+)\}$/.exec(segment)?.[1];

function buildRules(): PathRule[] {
  const byPrefix = new Map<string, PathRule>();
  for (const route of routes.values()) {
    const parts = route.path.split('/');
    // The rule ends at the last credential parameter: what follows differs from route to route.
    let last = -1;
    parts.forEach((part, i) => {
      const name = paramOf(part);
      if (name && route.params.has(name)) last = i;
    });
    const prefix = parts.slice(0, last + 1);
    const key = prefix
      .map((p) => (paramOf(p) ? (route.params.has(paramOf(p) as string) ? '{*}' : '{}') : p))
      .join('/');
    if (byPrefix.has(key)) continue;
    let source = '';
    let replacement = '';
    let group = 0;
    prefix.slice(1).forEach((part, j) => {
      const name = paramOf(part);
      if (name && route.params.has(name)) {
        // Literal routes beside this parameter (`/password/forgot`) keep their name.
        const above = prefix.slice(0, j + 1).join('/');
        const siblings = [...paths]
          .map((p) => p.split('/'))
          .filter(
            (p) => p.length > j + 1 && p.slice(0, j + 1).join('/') === above && !paramOf(p[j + 1] as string),
          )
          .map((p) => literal(p[j + 1] as string));
        const not = siblings.length ? `(?!(?:${[...new Set(siblings)].join('|')})(?:[/?#\\s"'<>]|$))` : '';
        source += `/${not}[^/?#\\s"'<>]+`;
        replacement += '/[redacted]';
      } else if (name) {
        group++;
        source += `/([^/?#\\s"'<>]*)`;
        replacement += `/$${group}`;
      } else {
        source += `/${literal(part)}`;
        replacement += `/${part.replace(/\$/g, '$$$$')}`;
      }
    });
    // Anywhere a URL or path appears (a request line, a `next=` target, a message), up to its end.
    byPrefix.set(key, { pattern: new RegExp(`${source}(?=[/?#\\s"'<>&]|$)`, 'gi'), replacement });
  }
  return [...byPrefix.values()];
}

// A public action code anywhere in a message (e.g. a failed query's parameters): 20 characters of
// base32, whatever route it came through.
const ACTION_CODE = /\b[0-9a-hjkmnp-tv-z]{20}\b/gi;

/** A query string's name as a server reads it (percent-decoded, lower case, without `[]`). */
function paramName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Not valid percent-encoding: compared as written.
  }
  return name.replace(/\[.*$/, '').trim().toLowerCase();
}

/** `query` (after `?`, without it) with the values of credential parameters replaced. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return CREDENTIAL_QUERY_PARAMS.has(paramName(pair.slice(0, eq)))
        ? `${pair.slice(0, eq)}=[redacted]`
        : pair;
    })
    .join('&');
}

/** A URL (or path) for a log: credential path segments and query values replaced, action codes too. */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const main = hash < 0 ? url : url.slice(0, hash);
  // A fragment may carry credentials too (an implicit grant's `#access_token=`).
  const fragment = hash < 0 ? '' : `#${redactQuery(url.slice(hash + 1))}`;
  const q = main.indexOf('?');
  const path = q < 0 ? main : main.slice(0, q);
  const redacted = q < 0 ? redactPaths(path) : `${redactPaths(path)}?${redactQuery(main.slice(q + 1))}`;
  return redactText(redacted) + fragment;
}

function redactPaths(text: string): string {
  rules ??= buildRules();
  let out = text;
  for (const rule of rules) out = out.replace(rule.pattern, rule.replacement);
  return out;
}

// URLs inside free text: the query of each is redacted by name.
const QUERY_IN_TEXT = /\?([^\s"'<>#]*)/g;

/** Free text (a message, a stack, a stored path): every credential this request carries, every declared credential path and query value, every action code. */
export function redactText(text: string): string {
  let out = redactPaths(text).replace(QUERY_IN_TEXT, (_m, query: string) => `?${redactQuery(query)}`);
  for (const value of requestSecrets.getStore() ?? []) out = out.split(value).join('[redacted]');
  return out.replace(ACTION_CODE, '[redacted]');
}

/** The credentials of the request being served (the values of its declared credential parameters). */
const requestSecrets = new AsyncLocalStorage<Set<string>>();

/** Runs `fn` (a request) with a set of credential values that everything logged within it has removed. */
export function withRedaction<T>(fn: () => T): T {
  return requestSecrets.run(new Set(), fn);
}

/** Adds `value` (a credential the request carries) to what is removed from everything it logs. */
export function redactValue(value: unknown): void {
  // Short values would take common words with them; every credential here is long.
  if (typeof value === 'string' && value.length >= 8) requestSecrets.getStore()?.add(value);
}

/** True when the current request carries credentials to take out of its log lines. */
export function carriesCredentials(): boolean {
  return (requestSecrets.getStore()?.size ?? 0) > 0;
}

/**
 * A copy of a log line's fields with every string redactText'd (nested up to a few levels). Only plain
 * data is copied — a request, a response or an error is left to its serializer — unless `anyObject`
 * (what a serializer made: an error's own fields and the errors nested in it).
 */
export function redactFields(value: unknown, anyObject = false, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactFields(v, anyObject, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (!anyObject && proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactFields(v, anyObject, depth + 1);
  return out;
}
