import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/**
 * Request counters of the rate limits, shared by every instance on the database. Not a tenant table:
 * a counter is found by its key (the limit's name and the client: an API key, an OAuth client, an
 * address) before any organisation is known. One row per key, for its current fixed window.
 */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  /** When the current window ends (and the count starts again). */
  resetAt: ts('reset_at').notNull(),
  hits: integer('hits').notNull(),
});
