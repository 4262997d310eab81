import { and, eq } from 'drizzle-orm';
import { campaignVisitors } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

export type VisitorRow = typeof campaignVisitors.$inferSelect;

/** The visitors of campaign links: the only code that touches campaign_visitors. */
export function campaignVisitorRepository(q: Tx, ctx: RequestContext) {
  const org = eq(campaignVisitors.organisationId, ctx.organisationId);
  return {
    /** The visitor of this campaign whose token hashes to `tokenHash`, locked. */
    async findByToken(sessionRequestId: string, tokenHash: string): Promise<VisitorRow | undefined> {
      const [row] = await q
        .select()
        .from(campaignVisitors)
        .where(
          and(
            org,
            eq(campaignVisitors.sessionRequestId, sessionRequestId),
            eq(campaignVisitors.tokenHash, tokenHash),
          ),
        )
        .for('update');
      return row;
    },
    async insert(row: Omit<VisitorRow, 'organisationId'>): Promise<VisitorRow> {
      const [inserted] = await q
        .insert(campaignVisitors)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return inserted!;
    },
    async saveDraft(id: string, draft: VisitorRow['draft'], at: Date): Promise<void> {
      await q
        .update(campaignVisitors)
        .set({ draft, updatedAt: at })
        .where(and(org, eq(campaignVisitors.id, id)));
    },
    async markSubmitted(id: string, at: Date): Promise<void> {
      await q
        .update(campaignVisitors)
        .set({ submittedAt: at, updatedAt: at })
        .where(and(org, eq(campaignVisitors.id, id)));
    },
  };
}
