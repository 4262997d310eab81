import { and, asc, eq, sql } from 'drizzle-orm';
import { portfolios } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { Queryable } from '../../platform/db/database';
import { isId } from '../../platform/ids';

export type PortfolioRow = typeof portfolios.$inferSelect;

export function portfolioRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(portfolios.organisationId, ctx.organisationId);
  return {
    async list(): Promise<PortfolioRow[]> {
      return q.select().from(portfolios).where(org).orderBy(asc(portfolios.createdAt), asc(portfolios.id));
    },
    async find(id: string): Promise<PortfolioRow | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await q
        .select()
        .from(portfolios)
        .where(and(org, eq(portfolios.id, id)));
      return row;
    },
    async findDefault(): Promise<PortfolioRow | undefined> {
      const [row] = await q
        .select()
        .from(portfolios)
        .where(and(org, eq(portfolios.isDefault, true)));
      return row;
    },
    async nameTaken(name: string): Promise<boolean> {
      const [row] = await q
        .select({ id: portfolios.id })
        .from(portfolios)
        .where(and(org, sql`lower(${portfolios.name}) = lower(${name})`));
      return row !== undefined;
    },
    async insert(row: Omit<PortfolioRow, 'organisationId' | 'customerCount'>): Promise<PortfolioRow> {
      const [created] = await q
        .insert(portfolios)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return created!;
    },
    /** Number of contacts, from the trigger-maintained counters (no row counting). */
    async customerTotal(portfolioId?: string): Promise<number> {
      const [row] = await q
        .select({ total: sql<string>`coalesce(sum(${portfolios.customerCount}), 0)` })
        .from(portfolios)
        .where(portfolioId ? and(org, eq(portfolios.id, portfolioId)) : org);
      return Number(row?.total ?? 0);
    },
  };
}
