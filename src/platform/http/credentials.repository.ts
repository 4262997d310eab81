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
               kind, password_changed_at
          FROM users WHERE id = ${userId}::uuid`,
  );
}

/** The OAuth token with this hash, with its client's and user's state (SECURITY DEFINER lookup). */
export function findOAuthToken<T>(q: Queryable, hash: string): Promise<T[]> {
  return queryRows<T>(q, sql`SELECT * FROM actiondesk_find_oauth_token(${hash})`);
}
