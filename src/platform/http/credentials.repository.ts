import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../db/database';

/**
 * The API key with this lookup prefix and its user, across organisations (SECURITY DEFINER function:
 * the organisation is not known before the key is), as raw rows.
 */
export function findApiKey<T>(q: Queryable, prefix: string): Promise<T[]> {
  return queryRows<T>(q, sql`SELECT * FROM actiondesk_find_api_key(${prefix})`);
}
