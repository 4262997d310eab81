import { lt, sql } from 'drizzle-orm';
import { rateCounters } from '../../db/schema/limits';
import { isoTimestamp, type Queryable, queryRows } from '../db/database';

/**
 * The shared request counters (one row per key and fixed window). A window only moves forward, so two
 * instances whose clocks straddle a window's end never reset each other's count.
 */
export function rateCounterRepository(q: Queryable) {
  return {
    /**
     * Counts `hits` in the window ending at `resetAt`; answers the hits so far in the key's newest
     * window (hits of a window that has ended elsewhere are not counted in the next one).
     */
    async hit(key: string, resetAt: Date, hits = 1): Promise<{ hits: number; resetAt: Date }> {
      const [row] = await queryRows<{ hits: number; reset_at: unknown }>(
        q,
        sql`INSERT INTO rate_counters (key, reset_at, hits) VALUES (${key}, ${resetAt.toISOString()}::timestamptz, ${hits}::integer)
            ON CONFLICT (key) DO UPDATE SET
              hits = CASE WHEN excluded.reset_at > rate_counters.reset_at THEN excluded.hits
                          WHEN excluded.reset_at < rate_counters.reset_at THEN rate_counters.hits
                          ELSE rate_counters.hits + excluded.hits END,
              reset_at = GREATEST(rate_counters.reset_at, excluded.reset_at)
            RETURNING hits, reset_at`,
      );
      return { hits: Number(row!.hits), resetAt: new Date(isoTimestamp(row!.reset_at)) };
    },
    /** The hits of the window ending at `resetAt` (0 when the key's count is of an earlier window). */
    async peek(key: string, resetAt: Date): Promise<number> {
      const [row] = await q
        .select({ hits: rateCounters.hits, resetAt: rateCounters.resetAt })
        .from(rateCounters)
        .where(sql`${rateCounters.key} = ${key}`);
      return row && row.resetAt.getTime() >= resetAt.getTime() ? row.hits : 0;
    },
    /** Takes one hit back (a request that is not to count after all). */
    async unhit(key: string): Promise<void> {
      await q.execute(sql`UPDATE rate_counters SET hits = GREATEST(hits - 1, 0) WHERE key = ${key}`);
    },
    async reset(key: string): Promise<void> {
      await q.delete(rateCounters).where(sql`${rateCounters.key} = ${key}`);
    },
    /** Removes counters whose window ended before `before`. */
    async prune(before: Date): Promise<number> {
      const gone = await q
        .delete(rateCounters)
        .where(lt(rateCounters.resetAt, before))
        .returning({ key: rateCounters.key });
      return gone.length;
    },
  };
}
