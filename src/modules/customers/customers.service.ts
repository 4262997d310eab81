import type { Clock } from '../../platform/clock';
import type { RequestContext } from '../../platform/context';
import { type Database, isoTimestamp, type Row, type Tx } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import { BadRequest, Conflict, NotFound } from '../../platform/errors';
import { fromZodError } from '../../platform/http/validation';
import { isId, newId } from '../../platform/ids';
import { iso } from '../../platform/schemas';
import { customerTotalStatement, portfolioRepository } from '../portfolios';
import {
  type CustomerRecord,
  customerRepository,
  customerStatements,
  searchTerms,
} from './customers.repository';
import {
  type CreateCustomer,
  type Customer,
  CustomerData,
  type ListCustomersQuery,
  type UpdateCustomer,
} from './customers.schemas';

export interface CustomerDeps {
  database: Database;
  clock: Clock;
}

export function toCustomer(row: CustomerRecord): Customer {
  return {
    _id: row.id,
    thirdpartyId: row.thirdpartyId,
    portfolio: row.portfolioId,
    data: row.data,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A row of customerStatements.page (snake_case columns) in the API's shape. */
function customerFromRow(row: Row): Customer {
  return {
    _id: row.id as string,
    thirdpartyId: (row.thirdparty_id as string | null) ?? null,
    portfolio: row.portfolio_id as string,
    data: row.data as Record<string, string>,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

const notFound = () => new NotFound('Customer not found');

function duplicateThirdpartyId(thirdpartyId: string, existingId?: string) {
  return new Conflict(`A customer with thirdpartyId '${thirdpartyId}' already exists`, [
    {
      field: 'thirdpartyId',
      in: 'body',
      message: existingId ? `is already used by customer ${existingId}` : 'is already used',
      ...(existingId ? { value: existingId } : {}),
    },
  ]);
}

/**
 * Lists a page of contacts with the total matching the filter. Unfiltered totals come from counters,
 * never from counting rows; both statements run in one read batch (one round trip on the server).
 */
export async function listCustomers(deps: CustomerDeps, ctx: RequestContext, query: ListCustomersQuery) {
  if (query.portfolioId !== undefined && !isId(query.portfolioId)) {
    throw BadRequest.field('portfolioId', 'is not a valid portfolio id', 'query');
  }
  const filter = { portfolioId: query.portfolioId, thirdpartyId: query.thirdpartyId, search: query.search };
  const filtered = filter.thirdpartyId !== undefined || searchTerms(filter.search).length > 0;
  const [rows = [], totals = []] = await batchInTenant(deps.database, ctx, [
    customerStatements.page(ctx, filter, query),
    filtered ? customerStatements.count(ctx, filter) : customerTotalStatement(ctx, filter.portfolioId),
  ]);
  return {
    customers: rows.map(customerFromRow),
    total: Number(totals[0]?.n ?? 0),
  };
}

export async function getCustomer(deps: CustomerDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => customerRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toCustomer(row);
}

async function resolvePortfolio(
  tx: Tx,
  ctx: RequestContext,
  portfolioId: string | undefined,
): Promise<string> {
  const portfolios = portfolioRepository(tx, ctx);
  if (portfolioId === undefined) {
    const fallback = await portfolios.findDefault();
    if (!fallback)
      throw BadRequest.field('portfolioId', 'is required: the organisation has no default portfolio');
    return fallback.id;
  }
  const found = await portfolios.find(portfolioId);
  if (!found) throw BadRequest.field('portfolioId', 'is not a portfolio of this organisation');
  return found.id;
}

export async function createCustomer(deps: CustomerDeps, ctx: RequestContext, input: CreateCustomer) {
  try {
    return await inTenant(deps.database, ctx, async (tx) => {
      const customers = customerRepository(tx, ctx);
      const portfolioId = await resolvePortfolio(tx, ctx, input.portfolioId);
      if (input.thirdpartyId !== undefined) {
        const existing = await customers.findByThirdpartyId(input.thirdpartyId);
        if (existing) throw duplicateThirdpartyId(input.thirdpartyId, existing.id);
      }
      const now = deps.clock.now();
      const [row] = await customers.insert([
        {
          id: newId(now.getTime()),
          portfolioId,
          thirdpartyId: input.thirdpartyId ?? null,
          data: input.data,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      return toCustomer(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'customers_org_thirdparty_key'))
      throw duplicateThirdpartyId(input.thirdpartyId ?? '');
    throw err;
  }
}

/** Applies a partial update; `data` is merged key by key (null removes a key) and re-validated whole. */
export async function updateCustomer(
  deps: CustomerDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateCustomer,
) {
  try {
    return await inTenant(deps.database, ctx, async (tx) => {
      const customers = customerRepository(tx, ctx);
      const current = await customers.find(id, { forUpdate: true });
      if (!current) throw notFound();
      const portfolioId =
        input.portfolioId === undefined
          ? current.portfolioId
          : await resolvePortfolio(tx, ctx, input.portfolioId);
      const thirdpartyId = input.thirdpartyId === undefined ? current.thirdpartyId : input.thirdpartyId;
      if (thirdpartyId !== null && thirdpartyId !== current.thirdpartyId) {
        const existing = await customers.findByThirdpartyId(thirdpartyId);
        if (existing) throw duplicateThirdpartyId(thirdpartyId, existing.id);
      }
      const merged: Record<string, string | null> = { ...current.data, ...(input.data ?? {}) };
      for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
      const checked = CustomerData.safeParse(merged);
      if (!checked.success) throw fromZodError(checked.error, 'body', ['data']);
      const row = await customers.update(current.id, {
        portfolioId,
        thirdpartyId,
        data: checked.data,
        updatedAt: deps.clock.now(),
      });
      return toCustomer(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'customers_org_thirdparty_key'))
      throw duplicateThirdpartyId(input.thirdpartyId ?? '');
    throw err;
  }
}

export async function deleteCustomer(deps: CustomerDeps, ctx: RequestContext, id: string): Promise<void> {
  const removed = await inTenant(deps.database, ctx, (tx) => customerRepository(tx, ctx).remove(id));
  if (!removed) throw notFound();
}
