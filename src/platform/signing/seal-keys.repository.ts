import { eq } from 'drizzle-orm';
import { sealKeys } from '../../db/schema';
import type { Queryable } from '../db/database';

export type SealKeyRow = typeof sealKeys.$inferSelect;

/** The stored seal keys (one, `default`, today). Not tenant data: read and written outside any organisation. */
export function sealKeyRepository(q: Queryable) {
  return {
    async find(id: string): Promise<SealKeyRow | undefined> {
      const [row] = await q.select().from(sealKeys).where(eq(sealKeys.id, id));
      return row;
    },
    /** Stores the key unless another process stored one first (then that one wins). */
    async insertIfAbsent(row: SealKeyRow): Promise<void> {
      await q.insert(sealKeys).values(row).onConflictDoNothing({ target: sealKeys.id });
    },
  };
}
