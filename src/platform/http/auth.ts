import type { Request, RequestHandler } from 'express';
import './request';
import type { Clock } from '../clock';
import type { RequestContext } from '../context';
import { apiKeyMatches, isWellFormedApiKey, lookupPrefixOf } from '../crypto/api-keys';
import type { Database, Queryable, Tx } from '../db/database';
import { Forbidden, Unauthenticated } from '../errors';
import { type Permission, permissionsOf } from '../permissions';
import { findApiKey } from './credentials.repository';

/** Who presented the credentials, as the database knows them now. */
export interface Principal {
  organisationId: string;
  userId: string;
  apiKeyId: string | null;
  authVersion: number;
  groups: string[];
  status: 'active' | 'deactivated';
  authMethod: RequestContext['authMethod'];
}

/** One way of proving identity (API key now; bearer tokens slot in beside it). */
export interface Authenticator {
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
    authMethod: 'api_key',
  };
}

function admit(principal: Principal, permission: Permission): ReadonlySet<Permission> {
  if (principal.status !== 'active') throw new Forbidden('User account is deactivated');
  const granted = permissionsOf(principal.groups);
  if (!granted.has(permission)) {
    throw new Forbidden(`Permission '${permission}' is required; the user's groups do not grant it`);
  }
  return granted;
}

/** Builds the per-route middleware that authenticates the caller and checks one permission. */
export class AuthGate {
  constructor(
    private readonly authenticators: readonly Authenticator[],
    private readonly clock: Clock,
  ) {}

  require(permission: Permission): RequestHandler {
    return async (req, _res, next) => {
      const authenticator = this.authenticators.find((a) => a.presentIn(req));
      if (!authenticator)
        throw new Unauthenticated('Missing credentials: send your API key in the x-api-key header');
      let principal = await authenticator.authenticate(req);
      let granted: ReadonlySet<Permission>;
      try {
        granted = admit(principal, permission);
      } catch {
        // A refusal is never based on a cached row: the user may have been reactivated or regrouped.
        principal = await authenticator.authenticate(req, true);
        granted = admit(principal, permission);
      }
      const ctx: RequestContext = {
        organisationId: principal.organisationId,
        userId: principal.userId,
        apiKeyId: principal.apiKeyId,
        authVersion: principal.authVersion,
        permissions: granted,
        authMethod: principal.authMethod,
        requestId: String(req.id),
        at: this.clock.now(),
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
      next();
    };
  }
}
