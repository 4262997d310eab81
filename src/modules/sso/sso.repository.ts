import { and, asc, eq } from 'drizzle-orm';
import { ssoProviders } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { Queryable } from '../../platform/db/database';
import { isId } from '../../platform/ids';

export type SsoProviderRow = typeof ssoProviders.$inferSelect;

export function ssoProviderRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(ssoProviders.organisationId, ctx.organisationId);
  return {
    async list(): Promise<SsoProviderRow[]> {
      return q
        .select()
        .from(ssoProviders)
        .where(org)
        .orderBy(asc(ssoProviders.createdAt), asc(ssoProviders.id));
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<SsoProviderRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(ssoProviders)
        .where(and(org, eq(ssoProviders.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async insert(row: Omit<SsoProviderRow, 'organisationId'>): Promise<SsoProviderRow> {
      const [created] = await q
        .insert(ssoProviders)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return created!;
    },
    async update(
      id: string,
      change: Partial<Omit<SsoProviderRow, 'id' | 'organisationId'>>,
    ): Promise<SsoProviderRow | undefined> {
      const [row] = await q
        .update(ssoProviders)
        .set(change)
        .where(and(org, eq(ssoProviders.id, id)))
        .returning();
      return row;
    },
    async remove(id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const rows = await q
        .delete(ssoProviders)
        .where(and(org, eq(ssoProviders.id, id)))
        .returning({ id: ssoProviders.id });
      return rows.length > 0;
    },
  };
}
