import { and, eq, gt, isNull } from 'drizzle-orm';
import { oauthAuthorizationRequests } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

export type AuthorizationRequestRow = typeof oauthAuthorizationRequests.$inferSelect;

/** The authorization requests consent pages showed, in the context's organisation. */
export function authorizationRequestRepository(q: Tx, ctx: RequestContext) {
  const org = eq(oauthAuthorizationRequests.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<AuthorizationRequestRow, 'organisationId' | 'usedAt'>): Promise<void> {
      await q.insert(oauthAuthorizationRequests).values({ ...row, organisationId: ctx.organisationId });
    },
    /**
     * Spends the request with this hash if it is `userId`'s, unused and not expired at `now`: answers it
     * to the one call that does; every other call (a replay, a race, another user, a late answer) gets
     * undefined.
     */
    async spend(
      requestHash: string,
      userId: string,
      now: Date,
    ): Promise<AuthorizationRequestRow | undefined> {
      const [row] = await q
        .update(oauthAuthorizationRequests)
        .set({ usedAt: now })
        .where(
          and(
            org,
            eq(oauthAuthorizationRequests.requestHash, requestHash),
            eq(oauthAuthorizationRequests.userId, userId),
            isNull(oauthAuthorizationRequests.usedAt),
            gt(oauthAuthorizationRequests.expiresAt, now),
          ),
        )
        .returning();
      return row;
    },
  };
}
