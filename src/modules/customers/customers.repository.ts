import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { customers } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { queryRows, type Tx } from '../../platform/db/database';
import { cappedCount, keysetSql } from '../../platform/db/keyset';
import type { RemovedAction } from '../../platform/events/removals';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { escapeLike, foldForSearch } from '../../platform/kernel/text';
import type { Keyset } from '../../platform/lists/cursor';
import { offsetOf, type Page } from '../../platform/lists/pagination';
import { searchableText } from './contact-fields';

export type CustomerRow = RowOf<typeof customers>;
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

/** What depends on a contact: the first `limit` of each kind (oldest first) and how many there are. */
export interface CustomerDependants {
  sessionRequests: { total: number; ids: string[] };
  sessions: { total: number; ids: string[] };
}

/** What search matches: first name, last name and e-mail, folded. */
function searchTextOf(data: Record<string, string>): string {
  return foldForSearch(searchableText(data));
}

export function searchTerms(search: string | undefined): string[] {
  return foldForSearch(search ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8);
}

function whereOf(ctx: RequestContext, f: CustomerFilter): SQL | undefined {
  return and(
    eq(customers.organisationId, ctx.organisationId),
    f.portfolioId ? eq(customers.portfolioId, f.portfolioId) : undefined,
    f.thirdpartyId !== undefined ? eq(customers.thirdpartyId, f.thirdpartyId) : undefined,
  );
}

/** Arguments of the search functions (migration 0002): LIKE patterns, portfolio, thirdpartyId. */
function searchArguments(f: CustomerFilter): SQL | undefined {
  const patterns = searchTerms(f.search).map((t) => sql`${`%${escapeLike(t)}%`}`);
  if (patterns.length === 0) return undefined;
  return sql`ARRAY[${sql.join(patterns, sql`, `)}]::text[], ${f.portfolioId ?? null}::uuid, ${f.thirdpartyId ?? null}::text`;
}

const keysetColumns = {
  table: customers,
  created: customers.createdAt,
  updated: customers.updatedAt,
  txid: customers.changeTxid,
  id: customers.id,
};

const pageColumns = sql.raw('id, portfolio_id, thirdparty_id, data, created_at, updated_at');

/**
 * The list's statements, to run in one read batch (see batchInTenant): a page of rows (columns of
 * CustomerRow in snake_case) and the number of rows matching the filter. A search goes through
 * actiondesk_customer_search*, which keep to the current organisation and can use the trigram index.
 */
export const customerStatements = {
  page(ctx: RequestContext, filter: CustomerFilter, page: Page): SQL {
    const search = searchArguments(filter);
    if (search) {
      return sql`SELECT ${pageColumns} FROM actiondesk_customer_search(${search}, ${page.limit}::integer, ${offsetOf(page)}::integer)`;
    }
    return sql`SELECT ${pageColumns} FROM customers WHERE ${whereOf(ctx, filter)}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`;
  },
  /**
   * A page by keyset (one more row than `limit`, to tell whether more follow): newest first after the
   * cursor's contact, or with `since` oldest change first. Served by the (created_at, id) and
   * (updated_at, id) indexes: as cheap deep in the list as at its start.
   */
  keyset(ctx: RequestContext, filter: CustomerFilter, keyset: Keyset, limit: number): SQL {
    const k = keysetSql(keyset, keysetColumns);
    return sql`SELECT ${pageColumns}, change_txid FROM customers WHERE ${whereOf(ctx, filter)} AND ${k.where}
      ORDER BY ${sql.join(k.orderBy, sql`, `)} LIMIT ${limit + 1}`;
  },
  /** How many contacts changed since `since` (for the total of a sync), counted up to `cap` + 1. */
  changedCount(ctx: RequestContext, filter: CustomerFilter, since: Date, cap: number): SQL {
    return cappedCount(
      sql`customers`,
      sql`${whereOf(ctx, filter)} AND updated_at >= ${since.toISOString()}::timestamptz`,
      cap,
    );
  },
  count(ctx: RequestContext, filter: CustomerFilter): SQL {
    const search = searchArguments(filter);
    if (search) return sql`SELECT actiondesk_customer_search_count(${search}) AS n`;
    return sql`SELECT count(*) AS n FROM customers WHERE ${whereOf(ctx, filter)}`;
  },
};

export function customerRepository(q: Tx, ctx: RequestContext) {
  const org = eq(customers.organisationId, ctx.organisationId);
  return {
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<CustomerRecord | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select(columns)
        .from(customers)
        .where(and(org, eq(customers.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    /** The contacts with these ids (unknown and malformed ids are left out), in no order. */
    async findMany(ids: readonly string[]): Promise<CustomerRecord[]> {
      const wanted = [...new Set(ids.filter(isId))];
      if (wanted.length === 0) return [];
      return q
        .select(columns)
        .from(customers)
        .where(and(org, inArray(customers.id, wanted)));
    },
    async findByThirdpartyId(thirdpartyId: string): Promise<{ id: string } | undefined> {
      const [row] = await q
        .select({ id: customers.id })
        .from(customers)
        .where(and(org, eq(customers.thirdpartyId, thirdpartyId)));
      return row;
    },
    /** The oldest contact of the portfolio with this e-mail address (any case). */
    async findByEmail(portfolioId: string, email: string): Promise<CustomerRecord | undefined> {
      const [row] = await q
        .select(columns)
        .from(customers)
        .where(
          and(
            org,
            eq(customers.portfolioId, portfolioId),
            sql`lower(${customers.data}->>'Email') = lower(${email})`,
          ),
        )
        .orderBy(customers.createdAt, customers.id)
        .limit(1);
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
    /** The contact's actions and submitted sessions, counted and listed, in one statement. */
    async dependants(id: string, limit: number): Promise<CustomerDependants> {
      const [row] = await queryRows<{
        actions_total: string;
        actions: string[] | null;
        sessions_total: string;
        sessions: string[] | null;
      }>(
        q,
        sql`WITH a AS (
              SELECT id, created_at FROM session_requests
               WHERE organisation_id = ${ctx.organisationId}::uuid
                 AND (customer_id = ${id}::uuid
                      OR id IN (SELECT g.session_request_id FROM signers g
                                 WHERE g.organisation_id = ${ctx.organisationId}::uuid
                                   AND g.customer_id = ${id}::uuid))),
            s AS (
              SELECT id, created_at FROM sessions
               WHERE organisation_id = ${ctx.organisationId}::uuid AND customer_id = ${id}::uuid)
            SELECT
              (SELECT count(*) FROM a) AS actions_total,
              (SELECT json_agg(x.id ORDER BY x.created_at, x.id)
                 FROM (SELECT * FROM a ORDER BY created_at, id LIMIT ${limit}) x) AS actions,
              (SELECT count(*) FROM s) AS sessions_total,
              (SELECT json_agg(x.id ORDER BY x.created_at, x.id)
                 FROM (SELECT * FROM s ORDER BY created_at, id LIMIT ${limit}) x) AS sessions`,
      );
      return {
        sessionRequests: { total: Number(row?.actions_total ?? 0), ids: row?.actions ?? [] },
        sessions: { total: Number(row?.sessions_total ?? 0), ids: row?.sessions ?? [] },
      };
    },
    /**
     * What deleting the contact (`remove`) takes along, locked so that nothing is added to it before it
     * goes: the actions the contact signs (`signed`, deleted first) and its own, oldest first, as they
     * are now; and the contact's campaign visitors (whose sessions go with them).
     */
    async lockRemovedWith(
      id: string,
    ): Promise<{ actions: (RemovedAction & { signed: boolean })[]; visitorIds: string[] }> {
      if (!isId(id)) return { actions: [], visitorIds: [] };
      const orgId = sql`${ctx.organisationId}::uuid`;
      const signed = sql`SELECT g.session_request_id FROM signers g
                          WHERE g.organisation_id = ${orgId} AND g.customer_id = ${id}::uuid`;
      const [locked] = await queryRows<{
        actions: (RemovedAction & { signed: boolean })[] | null;
        visitors: string[] | null;
      }>(
        q,
        sql`WITH a AS (
              SELECT id, type, status, customer_id, created_at, id IN (${signed}) AS signed
                FROM session_requests
               WHERE organisation_id = ${orgId} AND (customer_id = ${id}::uuid OR id IN (${signed}))
                 FOR UPDATE),
            v AS (
              SELECT id FROM campaign_visitors
               WHERE organisation_id = ${orgId} AND customer_id = ${id}::uuid
                 FOR UPDATE)
            SELECT (SELECT json_agg(json_build_object('id', id, 'type', type, 'status', status,
                                                      'customerId', customer_id, 'signed', signed)
                                    ORDER BY created_at, id) FROM a) AS actions,
                   (SELECT json_agg(id ORDER BY id) FROM v) AS visitors`,
      );
      return { actions: locked?.actions ?? [], visitorIds: locked?.visitors ?? [] };
    },
    /**
     * Deletes the contact. Its own actions go with it (foreign key ON DELETE CASCADE), and so do the
     * signing actions it signs with other contacts: the signed document holds its signature and details.
     */
    async remove(id: string): Promise<boolean> {
      if (!isId(id)) return false;
      await q.execute(
        sql`DELETE FROM session_requests
             WHERE organisation_id = ${ctx.organisationId}::uuid
               AND id IN (SELECT g.session_request_id FROM signers g
                           WHERE g.organisation_id = ${ctx.organisationId}::uuid AND g.customer_id = ${id}::uuid)`,
      );
      const rows = await q
        .delete(customers)
        .where(and(org, eq(customers.id, id)))
        .returning({ id: customers.id });
      return rows.length > 0;
    },
  };
}
