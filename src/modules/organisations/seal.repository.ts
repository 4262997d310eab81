import { eq } from 'drizzle-orm';
import { organisationSeals } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

export type OrganisationSealRow = typeof organisationSeals.$inferSelect;
export type NewOrganisationSeal = Omit<OrganisationSealRow, 'organisationId' | 'expiryWarnedAt'>;

/** The organisation's own seal (one at most): its sealed PKCS#12 bundle and what its certificate says. */
export function organisationSealRepository(q: Tx, ctx: RequestContext) {
  const mine = eq(organisationSeals.organisationId, ctx.organisationId);
  return {
    async find(): Promise<OrganisationSealRow | undefined> {
      const [row] = await q.select().from(organisationSeals).where(mine);
      return row;
    },
    /** Sets the seal, replacing any other (its expiry warning starts again). */
    async put(seal: NewOrganisationSeal): Promise<void> {
      const row = { ...seal, organisationId: ctx.organisationId, expiryWarnedAt: null };
      await q
        .insert(organisationSeals)
        .values(row)
        .onConflictDoUpdate({ target: organisationSeals.organisationId, set: row });
    },
    async remove(): Promise<boolean> {
      const gone = await q
        .delete(organisationSeals)
        .where(mine)
        .returning({ id: organisationSeals.organisationId });
      return gone.length > 0;
    },
    async markWarned(at: Date): Promise<void> {
      await q.update(organisationSeals).set({ expiryWarnedAt: at }).where(mine);
    },
  };
}
