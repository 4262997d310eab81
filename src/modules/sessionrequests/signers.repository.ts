import { and, asc, eq, sql } from 'drizzle-orm';
import { type SignerTrailEntry, sessionRequests, signers } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';

export type SignerRow = typeof signers.$inferSelect;
export type NewSigner = Omit<SignerRow, 'organisationId' | 'trail' | 'codeAttempts'>;
export type SignerChange = Partial<Omit<SignerRow, 'id' | 'organisationId' | 'sessionRequestId' | 'trail'>>;

/** The signers of signing actions (one row per contact who signs; docs/signing.md). */
export function signerRepository(q: Tx, ctx: RequestContext) {
  const org = eq(signers.organisationId, ctx.organisationId);
  return {
    async insert(rows: NewSigner[]): Promise<void> {
      if (rows.length === 0) return;
      await q.insert(signers).values(rows.map((r) => ({ ...r, organisationId: ctx.organisationId })));
    },
    /** The action's signers in signing order. */
    async ofAction(sessionRequestId: string): Promise<SignerRow[]> {
      if (!isId(sessionRequestId)) return [];
      return q
        .select()
        .from(signers)
        .where(and(org, eq(signers.sessionRequestId, sessionRequestId)))
        .orderBy(asc(signers.position));
    },
    /**
     * Changes one signer and appends to its trail, in one statement. The caller holds the action's row
     * lock, which serialises every change to its signers.
     */
    async update(id: string, change: SignerChange, at: Date, trail: SignerTrailEntry[] = []) {
      const [row] = await q
        .update(signers)
        .set({
          ...change,
          updatedAt: at,
          ...(trail.length > 0 ? { trail: sql`${signers.trail} || ${JSON.stringify(trail)}::jsonb` } : {}),
        })
        .where(and(org, eq(signers.id, id)))
        .returning();
      if (!row) throw new Error(`signer ${id} is gone under its action's row lock`);
      // The action's answer lists its signers: a signer's change is a change of the action (for syncs).
      await q
        .update(sessionRequests)
        .set({ updatedAt: at })
        .where(
          and(
            eq(sessionRequests.organisationId, ctx.organisationId),
            eq(sessionRequests.id, row.sessionRequestId),
          ),
        );
      return row;
    },
  };
}
