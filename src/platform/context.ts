import type { Tx } from './db/database';
import type { Permission } from './permissions';

/**
 * The ways in. Each route declares which it accepts (API routes: `api_key` and `bearer` (OAuth), some also `session`; staff
 * pages: `session`; the contact's pages: `contact`); background jobs and operator tools act as `system`.
 */
export type Caller =
  | { readonly kind: 'api_key'; readonly userId: string; readonly apiKeyId: string }
  | { readonly kind: 'session'; readonly userId: string; readonly sessionId: string }
  | { readonly kind: 'bearer'; readonly userId: string; readonly clientId: string; readonly tokenId: string }
  | { readonly kind: 'contact'; readonly actionCode: string }
  | { readonly kind: 'system' };

/** The credentials a route may accept (the callers that authenticate per request). */
export type Credential = 'api_key' | 'session' | 'bearer';

/** Who is asking, for which organisation: the first argument of every service and repository. */
export interface RequestContext {
  readonly organisationId: string;
  readonly caller: Caller;
  /** The acting user (API key's or session's), or null for contacts and the system. */
  readonly userId: string | null;
  readonly apiKeyId: string | null;
  /** users.auth_version the credentials were checked against; re-checked in every tenant transaction. */
  authVersion: number;
  permissions: ReadonlySet<Permission>;
  readonly requestId: string;
  readonly at: Date;
  /**
   * Called inside the transaction when the database reports the cached credentials out of date:
   * re-reads them (updating this context) or throws 401/403.
   */
  readonly revalidate?: (tx: Tx) => Promise<void>;
}

const EVERYTHING: ReadonlySet<Permission> = new Set(['read', 'create', 'update', 'delete', 'admin']);

/** Context for operator tools and background jobs: acts for the organisation without a user. */
export function systemContext(organisationId: string, at: Date = new Date()): RequestContext {
  return {
    organisationId,
    caller: { kind: 'system' },
    userId: null,
    apiKeyId: null,
    authVersion: 0,
    permissions: EVERYTHING,
    requestId: 'system',
    at,
  };
}

/**
 * Context for a contact on their action link: the link is the credential; what they may do is decided
 * by the respondent use cases (their own action only), not by permissions.
 */
export function contactContext(
  organisationId: string,
  actionCode: string,
  at: Date,
  requestId = 'contact',
): RequestContext {
  return {
    organisationId,
    caller: { kind: 'contact', actionCode },
    userId: null,
    apiKeyId: null,
    authVersion: 0,
    permissions: EVERYTHING,
    requestId,
    at,
  };
}
