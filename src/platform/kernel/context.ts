import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from '../db/database';
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
  /** Live or test records (issue 31), as the credentials say; absent for contacts and the system. */
  readonly mode?: 'live' | 'test';
  /** The client's address, when the context serves a request (the audit trail records it). */
  readonly address?: string | null;
  /** For the system: which part acts (a job's kind, an operator tool), as the audit trail names it. */
  readonly label?: string | null;
  /**
   * A partner application at the OAuth endpoints, before it holds a token: the audit trail names it
   * (and the user the tokens act for) as the actor.
   */
  readonly acting?: { readonly clientId: string; readonly userId: string | null };
  /**
   * Called inside the transaction when the database reports the cached credentials out of date:
   * re-reads them (updating this context) or throws 401/403.
   */
  readonly revalidate?: (tx: Tx) => Promise<void>;
}

const EVERYTHING: ReadonlySet<Permission> = new Set(['read', 'create', 'update', 'delete', 'admin']);

/** Context for operator tools and background jobs: acts for the organisation without a user. */
export function systemContext(organisationId: string, at: Date = new Date(), label?: string): RequestContext {
  const from = origin.getStore();
  return {
    label: label ?? null,
    address: from?.address ?? null,
    organisationId,
    caller: { kind: 'system' },
    userId: null,
    apiKeyId: null,
    authVersion: 0,
    permissions: EVERYTHING,
    requestId: from?.requestId ?? 'system',
    at,
  };
}

/** A partner application at the OAuth token or revocation endpoint, acting for the organisation. */
export function clientContext(
  organisationId: string,
  at: Date,
  acting: { clientId: string; userId: string | null },
  label: string,
): RequestContext {
  return { ...systemContext(organisationId, at, label), acting };
}

/** The request being served: its id, the client's address and the languages its browser asks for. */
export interface Origin {
  requestId: string;
  address: string | null;
  /** Accept-Language's tags, most wanted first (empty: none asked for). */
  languages?: string[];
}

const origin = new AsyncLocalStorage<Origin>();

/**
 * Runs a route's handler with its request's origin: a system context made while serving it (the token
 * endpoint, a sign-in) carries the request's id and address into the audit trail. Background jobs run
 * outside any request and carry none.
 */
export function servingRequest<T>(from: Origin, fn: () => T): T {
  return origin.run(from, fn);
}

/** The languages the browser of the request being served asks for, most wanted first. */
export const requestLanguages = (): string[] => origin.getStore()?.languages ?? [];

/**
 * Context for a contact on their action link: the link is the credential; what they may do is decided
 * by the respondent use cases (their own action only), not by permissions.
 */
export function contactContext(organisationId: string, actionCode: string, at: Date): RequestContext {
  const from = origin.getStore();
  return {
    address: from?.address ?? null,
    organisationId,
    caller: { kind: 'contact', actionCode },
    userId: null,
    apiKeyId: null,
    authVersion: 0,
    permissions: EVERYTHING,
    requestId: from?.requestId ?? 'contact',
    at,
  };
}
