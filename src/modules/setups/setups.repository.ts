import { and, eq } from 'drizzle-orm';
import { setups } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';

export type SetupRow = typeof setups.$inferSelect;

export function setupRepository(q: Tx, ctx: RequestContext) {
  const org = eq(setups.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<SetupRow, 'organisationId' | 'usedAt' | 'sessionRequestIds'>): Promise<void> {
      await q.insert(setups).values({ ...row, organisationId: ctx.organisationId });
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<SetupRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(setups)
        .where(and(org, eq(setups.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    /** Spends the setup: it cannot be opened again. */
    async markUsed(id: string, at: Date, sessionRequestIds: string[]): Promise<void> {
      await q
        .update(setups)
        .set({ usedAt: at, sessionRequestIds })
        .where(and(org, eq(setups.id, id)));
    },
  };
}
