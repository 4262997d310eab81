import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../db/database';

/**
 * The API key with this lookup prefix and its user, across organisations (SECURITY DEFINER function:
 * the organisation is not known before the key is), as raw rows.
 */
export function findApiKey<T>(q: Queryable, prefix: string): Promise<T[]> {
  return queryRows<T>(q, sql`SELECT * FROM actiondesk_find_api_key(${prefix})`);
}

/** The session's user as authentication needs it, read inside a tenant transaction of its organisation. */
export function findSessionUser<T>(q: Queryable, userId: string): Promise<T[]> {
  return queryRows<T>(
    q,
    sql`SELECT id AS user_id, organisation_id, status AS user_status, groups AS user_groups, auth_version,
               kind, password_changed_at, sessions_ended_at
          FROM users WHERE id = ${userId}::uuid`,
  );
}

/** An OAuth token as actiondesk_find_oauth_token answers it: the token, its client's and user's state. */
export interface OAuthTokenRow {
  token_id: string;
  organisation_id: string;
  client_id: string;
  user_id: string;
  kind: 'access' | 'refresh';
  scopes: string[];
  expires_at: Date | string;
  revoked_at: Date | string | null;
  client_disabled_at: Date | string | null;
  user_status: 'active' | 'deactivated';
  user_groups: string[];
  auth_version: number;
  family_id: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  public_client_id: string;
  user_kind: string;
}

/** The OAuth token with this hash, with its client's and user's state (SECURITY DEFINER lookup). */
export async function findOAuthToken(q: Queryable, hash: string): Promise<OAuthTokenRow | undefined> {
  const [row] = await queryRows<OAuthTokenRow>(q, sql`SELECT * FROM actiondesk_find_oauth_token(${hash})`);
  return row;
}
