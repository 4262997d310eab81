import { and, eq, sql } from 'drizzle-orm';
import { idempotencyKeys } from '../../db/schema/idempotency';
import { queryRows, type Tx } from '../db/database';
import type { RequestContext } from '../kernel/context';

export type StoredAnswer = typeof idempotencyKeys.$inferSelect;

/** The stored answers to requests sent with an `Idempotency-Key` (see http/idempotency.ts). */
export function idempotencyRepository(q: Tx, ctx: RequestContext) {
  const org = eq(idempotencyKeys.organisationId, ctx.organisationId);
  return {
    /**
     * Takes the key for this request: inserts it, or takes over one whose 24 hours are over. Waits while
     * another transaction holds the same key (it commits its answer or rolls back). True when taken;
     * false when a live answer is stored (then `find` reads it).
     */
    async claim(row: {
      credential: string;
      key: string;
      requestHash: string;
      method: string;
      path: string;
      at: Date;
      expiresAt: Date;
    }): Promise<boolean> {
      const at = row.at.toISOString();
      const taken = await queryRows<{ taken: boolean }>(
        q,
        sql`INSERT INTO idempotency_keys
              (organisation_id, credential, key, request_hash, method, path, status, body, created_at, expires_at)
            VALUES (${ctx.organisationId}::uuid, ${row.credential}, ${row.key}, ${row.requestHash}, ${row.method},
                    ${row.path}, NULL, NULL, ${at}::timestamptz, ${row.expiresAt.toISOString()}::timestamptz)
            ON CONFLICT (organisation_id, credential, key) DO UPDATE SET
              request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
              status = NULL, body = NULL, created_at = excluded.created_at, expires_at = excluded.expires_at
            WHERE idempotency_keys.expires_at <= ${at}::timestamptz
            RETURNING TRUE AS taken`,
      );
      return taken.length > 0;
    },
    async find(credential: string, key: string): Promise<StoredAnswer | undefined> {
      const [row] = await q
        .select()
        .from(idempotencyKeys)
        .where(and(org, eq(idempotencyKeys.credential, credential), eq(idempotencyKeys.key, key)));
      return row;
    },
    /** Stores the answer of the request that holds the key (in its transaction). */
    async complete(credential: string, key: string, status: number, body: string | null): Promise<void> {
      await q
        .update(idempotencyKeys)
        .set({ status, body })
        .where(and(org, eq(idempotencyKeys.credential, credential), eq(idempotencyKeys.key, key)));
    },
    /** Drops up to 100 of the organisation's keys whose 24 hours are over (none another request holds). */
    async prune(now: Date): Promise<void> {
      await q.execute(
        sql`DELETE FROM idempotency_keys WHERE ctid IN (
              SELECT ctid FROM idempotency_keys
              WHERE organisation_id = ${ctx.organisationId}::uuid AND expires_at < ${now.toISOString()}::timestamptz
              LIMIT 100 FOR UPDATE SKIP LOCKED)`,
      );
    },
    /** How long the next statements wait for a row another transaction holds (then they fail, 55P03). */
    async waitAtMost(ms: number): Promise<void> {
      await q.execute(sql.raw(`SET LOCAL lock_timeout = ${Math.floor(ms)}`));
    },
    /** Back to the session's usual wait. */
    async waitAsUsual(): Promise<void> {
      await q.execute(sql.raw('SET LOCAL lock_timeout TO DEFAULT'));
    },
  };
}
