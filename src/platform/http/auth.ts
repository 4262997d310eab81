import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { clientAddress } from './address';
import './request';
import { apiKeyMatches, isWellFormedApiKey, lookupPrefixOf } from '../crypto/api-keys';
import type { Database, Queryable, Tx } from '../db/database';
import type { Clock } from '../kernel/clock';
import type { Caller, Credential, RequestContext } from '../kernel/context';
import { Forbidden, InsufficientScope, InvalidToken, Unauthenticated } from '../kernel/errors';
import { type Permission, permissionsOf } from '../kernel/permissions';
import type { CsrfGuard } from '../web/csrf';
import { findApiKey, findOAuthToken, type OAuthTokenRow } from './credentials.repository';

/** Who presented the credentials, as the database knows them now. */
export interface Principal {
  organisationId: string;
  userId: string;
  apiKeyId: string | null;
  authVersion: number;
  groups: string[];
  status: 'active' | 'deactivated';
  caller: Caller;
  /** OAuth tokens: the scopes granted (`all`: whatever the user may do); absent for other credentials. */
  scopes?: readonly string[];
}

/** One way of proving identity (API key, staff session; bearer tokens slot in beside them). */
export interface Authenticator {
  readonly credential: Credential;
  /** True when the request carries this authenticator's kind of credentials. */
  presentIn(req: Request): boolean;
  /** Resolves the credentials or throws Unauthenticated; `fresh` bypasses any cache. */
  authenticate(req: Request, fresh?: boolean): Promise<Principal>;
  /** Re-reads the principal bypassing any cache, inside the current transaction; throws if gone. */
  refresh(req: Request, tx: Tx): Promise<Principal>;
}

interface KeyRow {
  key_id: string;
  organisation_id: string;
  user_id: string;
  secret_hash: string;
  user_status: 'active' | 'deactivated';
  user_groups: string[];
  auth_version: number;
}

/**
 * x-api-key authentication. Rows are cached briefly by key prefix; every tenant transaction re-checks
 * them against the database (actiondesk_enter), so a deactivated user or revoked key is refused on the
 * very next request that touches data, on every instance.
 */
export class ApiKeyAuthenticator implements Authenticator {
  readonly credential = 'api_key';
  private readonly cache = new Map<string, { row: KeyRow; expires: number }>();
  private static readonly MAX_ENTRIES = 10_000;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  presentIn(req: Request): boolean {
    return req.headers['x-api-key'] !== undefined;
  }

  async authenticate(req: Request, fresh = false): Promise<Principal> {
    const key = this.keyOf(req);
    const prefix = lookupPrefixOf(key);
    const cached = fresh ? undefined : this.cache.get(prefix);
    let row = cached && cached.expires > this.clock.now().getTime() ? cached.row : undefined;
    if (!row) row = await this.load(this.database.db, prefix);
    if (!row || !apiKeyMatches(key, row.secret_hash)) throw new Unauthenticated('Invalid API key');
    return toPrincipal(row);
  }

  async refresh(req: Request, tx: Tx): Promise<Principal> {
    const key = this.keyOf(req);
    const prefix = lookupPrefixOf(key);
    this.cache.delete(prefix);
    const row = await this.load(tx, prefix);
    if (!row || !apiKeyMatches(key, row.secret_hash)) {
      throw new Unauthenticated('API key has been revoked or its user no longer exists');
    }
    return toPrincipal(row);
  }

  private keyOf(req: Request): string {
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || !isWellFormedApiKey(key)) throw new Unauthenticated('Invalid API key');
    return key;
  }

  private async load(q: Queryable, prefix: string): Promise<KeyRow | undefined> {
    const [row] = await findApiKey<KeyRow>(q, prefix);
    if (!row) return undefined;
    if (this.ttlMs > 0) {
      if (this.cache.size >= ApiKeyAuthenticator.MAX_ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(prefix, { row, expires: this.clock.now().getTime() + this.ttlMs });
    }
    return row;
  }
}

function toPrincipal(row: KeyRow): Principal {
  return {
    organisationId: row.organisation_id,
    userId: row.user_id,
    apiKeyId: row.key_id,
    authVersion: row.auth_version,
    groups: row.user_groups,
    status: row.user_status,
    caller: { kind: 'api_key', userId: row.user_id, apiKeyId: row.key_id },
  };
}

/** The OAuth scope a permission needs: its name, except `admin`, which only `all` grants. */
export function scopeFor(permission: Permission): string {
  return permission === 'admin' ? 'all' : permission;
}

function admit(principal: Principal, permission: Permission): ReadonlySet<Permission> {
  if (principal.status !== 'active') throw new Forbidden('User account is deactivated');
  const granted = new Set(permissionsOf(principal.groups));
  if (principal.scopes && !principal.scopes.includes('all')) {
    // A token does what its scope allows within what its user may: the intersection.
    const needed = scopeFor(permission);
    if (!principal.scopes.includes(needed)) throw new InsufficientScope(needed);
    for (const p of [...granted]) if (!principal.scopes.includes(p)) granted.delete(p);
  }
  if (!granted.has(permission)) {
    throw new Forbidden(`Permission '${permission}' is required; the user's groups do not grant it`);
  }
  return granted;
}

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const TOKEN_FORMAT = /^adt_[0-9A-Za-z]{40}$/;

/**
 * OAuth 2.0 bearer tokens (RFC 6750, Authorization header only). Like API keys, token rows are cached
 * briefly by the token's hash and every tenant transaction re-checks them (actiondesk_enter with the
 * token: not revoked, not expired on the app's clock, client enabled, user unchanged — and records the
 * token's use), so a revoked token, a disabled client or an expired token is refused on the very next
 * request that touches data: 401 with `WWW-Authenticate: Bearer error="invalid_token"`.
 */
export class BearerAuthenticator implements Authenticator {
  readonly credential = 'bearer';
  private readonly cache = new Map<string, { row: OAuthTokenRow; expires: number }>();
  private static readonly MAX_ENTRIES = 10_000;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly ttlMs = 0,
  ) {}

  presentIn(req: Request): boolean {
    const header = req.headers.authorization;
    return typeof header === 'string' && /^bearer\b/i.test(header);
  }

  async authenticate(req: Request, fresh = false): Promise<Principal> {
    const hash = this.hashOf(req);
    const cached = fresh ? undefined : this.cache.get(hash);
    if (cached && cached.expires > this.clock.now().getTime()) return this.check(cached.row);
    return this.check(await this.load(this.database.db, hash));
  }

  async refresh(req: Request, tx: Tx): Promise<Principal> {
    const hash = this.hashOf(req);
    this.cache.delete(hash);
    return this.check(await this.load(tx, hash));
  }

  private hashOf(req: Request): string {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!TOKEN_FORMAT.test(token)) throw new InvalidToken('The access token is malformed');
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }

  private async load(q: Queryable, hash: string): Promise<OAuthTokenRow | undefined> {
    const row = await findOAuthToken(q, hash);
    if (row && this.ttlMs > 0) {
      if (this.cache.size >= BearerAuthenticator.MAX_ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(hash, { row, expires: this.clock.now().getTime() + this.ttlMs });
    }
    return row;
  }

  private check(row: OAuthTokenRow | undefined): Principal {
    if (row?.kind !== 'access') throw new InvalidToken('The access token is unknown');
    if (row.revoked_at) throw new InvalidToken('The access token has been revoked');
    if (row.client_disabled_at) throw new InvalidToken('The client of this token is disabled');
    if (new Date(row.expires_at).getTime() <= this.clock.now().getTime()) {
      throw new InvalidToken('The access token has expired');
    }
    return {
      organisationId: row.organisation_id,
      userId: row.user_id,
      apiKeyId: null,
      authVersion: row.auth_version,
      groups: row.user_groups,
      status: row.user_status,
      caller: { kind: 'bearer', userId: row.user_id, clientId: row.client_id, tokenId: row.token_id },
      scopes: row.scopes,
    };
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What an API route takes unless it says otherwise: an API key or an OAuth bearer token. */
export const API_CREDENTIALS: readonly Credential[] = ['api_key', 'bearer'];

/**
 * Builds the per-route middleware that authenticates the caller by one of the credentials the route
 * accepts and checks one permission. Browser sessions must also carry the CSRF token on anything but
 * a read; API keys (and, later, bearer tokens) need none: a browser cannot send them by itself.
 */
export class AuthGate {
  constructor(
    private readonly authenticators: readonly Authenticator[],
    private readonly clock: Clock,
    private readonly csrf?: CsrfGuard,
    /** Whether an organisation is live or test (cached by the caller): the context's `mode`. */
    private readonly modeOf?: (organisationId: string) => Promise<'live' | 'test'>,
  ) {}

  /** The context of the caller, or throws 401/403: used by routes and by staff pages. */
  async contextOf(
    req: Request,
    permission: Permission,
    accepts: readonly Credential[] = API_CREDENTIALS,
  ): Promise<RequestContext> {
    const authenticator = this.authenticators.find((a) => accepts.includes(a.credential) && a.presentIn(req));
    if (!authenticator) {
      throw new Unauthenticated(
        accepts.includes('api_key')
          ? 'Missing credentials: send your API key in the x-api-key header'
          : 'Not signed in',
      );
    }
    if (authenticator.credential === 'session' && !SAFE_METHODS.has(req.method) && !this.csrf?.valid(req)) {
      throw new Forbidden('The CSRF token is missing or invalid: reload the page and try again');
    }
    let principal = await authenticator.authenticate(req);
    let granted: ReadonlySet<Permission>;
    try {
      granted = admit(principal, permission);
    } catch {
      // A refusal is never based on a cached row: the user may have been reactivated or regrouped.
      principal = await authenticator.authenticate(req, true);
      granted = admit(principal, permission);
    }
    const mode = await this.modeOf?.(principal.organisationId);
    const ctx: RequestContext = {
      ...(mode ? { mode } : {}),
      organisationId: principal.organisationId,
      caller: principal.caller,
      userId: principal.userId,
      apiKeyId: principal.apiKeyId,
      authVersion: principal.authVersion,
      permissions: granted,
      requestId: String(req.id),
      at: this.clock.now(),
      address: clientAddress(req),
      revalidate: async (tx) => {
        const fresh = await authenticator.refresh(req, tx);
        if (fresh.organisationId !== ctx.organisationId || fresh.userId !== ctx.userId) {
          throw new Unauthenticated('Credentials are no longer valid');
        }
        ctx.permissions = admit(fresh, permission);
        ctx.authVersion = fresh.authVersion;
      },
    };
    req.ctx = ctx;
    return ctx;
  }

  require(permission: Permission, accepts: readonly Credential[] = API_CREDENTIALS): RequestHandler {
    return async (req, _res, next) => {
      await this.contextOf(req, permission, accepts);
      next();
    };
  }
}
