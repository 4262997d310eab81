import { and, desc, eq, like, type SQL, sql } from 'drizzle-orm';
import { customers } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import type { Queryable } from '../../platform/db/database';
import { isId } from '../../platform/ids';
import { offsetOf, type Page } from '../../platform/pagination';
import { escapeLike, foldForSearch } from '../../platform/text';

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerFilter = { portfolioId?: string; thirdpartyId?: string; search?: string };

const columns = {
  id: customers.id,
  organisationId: customers.organisationId,
  portfolioId: customers.portfolioId,
  thirdpartyId: customers.thirdpartyId,
  data: customers.data,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};
export type CustomerRecord = Omit<CustomerRow, 'searchText'>;

/** What search matches: first name, last name and e-mail, folded. */
export function searchTextOf(data: Record<string, string>): string {
  return foldForSearch([data.Voornaam, data.Achternaam, data.Email].filter(Boolean).join(' '));
}

export function searchTerms(search: string | undefined): string[] {
  return foldForSearch(search ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8);
}

export function customerRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(customers.organisationId, ctx.organisationId);
  const where = (f: CustomerFilter): SQL | undefined =>
    and(
      org,
      f.portfolioId ? eq(customers.portfolioId, f.portfolioId) : undefined,
      f.thirdpartyId !== undefined ? eq(customers.thirdpartyId, f.thirdpartyId) : undefined,
      ...searchTerms(f.search).map((t) => like(customers.searchText, `%${escapeLike(t)}%`)),
    );
  return {
    async page(filter: CustomerFilter, page: Page): Promise<CustomerRecord[]> {
      return q
        .select(columns)
        .from(customers)
        .where(where(filter))
        .orderBy(desc(customers.createdAt), desc(customers.id))
        .limit(page.limit)
        .offset(offsetOf(page));
    },
    async count(filter: CustomerFilter): Promise<number> {
      const [row] = await q.select({ n: sql<string>`count(*)` }).from(customers).where(where(filter));
      return Number(row?.n ?? 0);
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<CustomerRecord | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select(columns)
        .from(customers)
        .where(and(org, eq(customers.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async findByThirdpartyId(thirdpartyId: string): Promise<{ id: string } | undefined> {
      const [row] = await q
        .select({ id: customers.id })
        .from(customers)
        .where(and(org, eq(customers.thirdpartyId, thirdpartyId)));
      return row;
    },
    async insert(rows: Omit<CustomerRow, 'organisationId' | 'searchText'>[]): Promise<CustomerRecord[]> {
      if (rows.length === 0) return [];
      return q
        .insert(customers)
        .values(
          rows.map((r) => ({ ...r, organisationId: ctx.organisationId, searchText: searchTextOf(r.data) })),
        )
        .returning(columns);
    },
    async update(
      id: string,
      change: Pick<CustomerRow, 'portfolioId' | 'thirdpartyId' | 'data' | 'updatedAt'>,
    ): Promise<CustomerRecord | undefined> {
      const [row] = await q
        .update(customers)
        .set({ ...change, searchText: searchTextOf(change.data) })
        .where(and(org, eq(customers.id, id)))
        .returning(columns);
      return row;
    },
    async remove(id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const rows = await q
        .delete(customers)
        .where(and(org, eq(customers.id, id)))
        .returning({ id: customers.id });
      return rows.length > 0;
    },
  };
}
