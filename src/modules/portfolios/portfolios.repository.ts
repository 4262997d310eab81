import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { portfolios } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { Tx } from '../../platform/db/database';
import { walkRows } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Walk } from '../../platform/lists/cursor';

export type PortfolioRow = RowOf<typeof portfolios>;

/** Number of contacts (optionally of one portfolio) from the trigger-maintained counters: column n. */
export function customerTotalStatement(ctx: RequestContext, portfolioId?: string): SQL {
  const org = eq(portfolios.organisationId, ctx.organisationId);
  return sql`SELECT coalesce(sum(customer_count), 0) AS n FROM portfolios
    WHERE ${portfolioId ? and(org, eq(portfolios.id, portfolioId)) : org}`;
}

export function portfolioRepository(q: Tx, ctx: RequestContext) {
  const org = eq(portfolios.organisationId, ctx.organisationId);
  return {
    async list(): Promise<PortfolioRow[]> {
      return q.select().from(portfolios).where(org).orderBy(asc(portfolios.createdAt), asc(portfolios.id));
    },
    /** Every row (oldest first), or one page of a walk by cursor. */
    walk(walk: Walk | null) {
      return walkRows<PortfolioRow>(
        q,
        // A portfolio changes only when it is made (its count of contacts is bookkeeping).
        {
          table: portfolios,
          created: portfolios.createdAt,
          updated: portfolios.createdAt,
          txid: portfolios.changeTxid,
          id: portfolios.id,
        },
        org,
        walk,
      );
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
  };
}
