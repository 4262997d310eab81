import type { SQL } from 'drizzle-orm';
import { type Database, isoTimestamp, type Row, type Tx } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import { eventRepository } from '../../platform/events/events.repository';
import { type Removal, recordRemovals, removalOf } from '../../platform/events/removals';
import type { FileStorage } from '../../platform/files/storage';
import { fromZodError } from '../../platform/http/validation';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, type FieldError, NotFound } from '../../platform/kernel/errors';
import { isId, newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { plural } from '../../platform/kernel/words';
import { keysetOf, keysetPage, SYNC_TOTAL_CAP } from '../../platform/lists/cursor';
import { contactDocumentIds, removeUnheldFiles } from '../files';
import { contactCountStatement, defaultPortfolio, portfolioById } from '../portfolios';
import { sessionsGoingWith } from '../sessions';
import {
  type CustomerDependants,
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

/** Deleting a contact may delete their sessions' files, so it also needs the file storage. */
export interface CustomerDeletionDeps extends CustomerDeps {
  storage: FileStorage;
}

/**
 * Records a contact's event in the caller's transaction: the contact as the API shows it, or, once
 * deleted, its ids.
 */
export function recordCustomerEvent(
  tx: Tx,
  ctx: RequestContext,
  type: 'customer.created' | 'customer.updated' | 'customer.deleted',
  row: CustomerRecord,
  at: Date,
): Promise<void> {
  const customer =
    type === 'customer.deleted' ? { _id: row.id, thirdpartyId: row.thirdpartyId } : toCustomer(row);
  return eventRepository(tx, ctx).record([{ type, subjectId: row.id, data: { customer } }], at);
}

function toCustomer(row: CustomerRecord): Customer {
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
/** Above this, the number of contacts changed since a moment is not counted further. */
const keyOf = (row: Row) => ({
  at: new Date(isoTimestamp(row.created_at)),
  txid: row.change_txid === undefined ? undefined : String(row.change_txid),
  id: row.id as string,
});

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
  const searching = searchTerms(filter.search).length > 0;
  const filtered = filter.thirdpartyId !== undefined || searching;
  const bound = { portfolioId: filter.portfolioId, thirdpartyId: filter.thirdpartyId };
  const keyset = keysetOf('customers', query, bound);
  const totalOf = (): SQL =>
    keyset?.since
      ? customerStatements.changedCount(ctx, filter, keyset.since, SYNC_TOTAL_CAP)
      : filtered
        ? customerStatements.count(ctx, filter)
        : contactCountStatement(ctx, filter.portfolioId);
  if (keyset && searching)
    throw BadRequest.field(
      'startingAfter',
      'cannot be combined with search: page a search with page',
      'query',
    );
  const [rows = [], totals = []] = await batchInTenant(deps.database, ctx, [
    keyset
      ? customerStatements.keyset(ctx, filter, keyset, query.limit)
      : customerStatements.page(ctx, filter, query),
    totalOf(),
  ]);
  const counted = Number(totals[0]?.n ?? 0);
  const total = keyset?.since ? Math.min(counted, SYNC_TOTAL_CAP) : counted;
  const order = keyset?.order ?? 'created';
  const page = keyset
    ? keysetPage('customers', rows, query.limit, order, keyOf, {
        since: keyset.since,
        askedWith: query.startingAfter,
        filters: bound,
      })
    : {
        ...keysetPage('customers', rows, query.limit, 'created', keyOf, { filters: bound }),
        hasMore: (query.page - 1) * query.limit + rows.length < total,
      };
  return {
    customers: page.items.map(customerFromRow),
    total,
    totalIsEstimate: Boolean(keyset?.since) && counted > SYNC_TOTAL_CAP,
    hasMore: page.hasMore,
    nextCursor: searching ? null : page.nextCursor,
  };
}

export async function getCustomer(deps: CustomerDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => customerRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toCustomer(row);
}

/** Several contacts by id in one query, keyed by id (ids that name none are absent). */
export async function getCustomersById(
  deps: CustomerDeps,
  ctx: RequestContext,
  ids: readonly string[],
): Promise<Map<string, Customer>> {
  const rows = await inTenant(deps.database, ctx, (tx) => customerRepository(tx, ctx).findMany(ids));
  return new Map(rows.map((row) => [row.id, toCustomer(row)]));
}

async function resolvePortfolio(
  tx: Tx,
  ctx: RequestContext,
  portfolioId: string | undefined,
): Promise<string> {
  if (portfolioId === undefined) {
    const fallback = await defaultPortfolio(tx, ctx);
    if (!fallback)
      throw BadRequest.field('portfolioId', 'is required: the organisation has no default portfolio');
    return fallback.id;
  }
  const found = await portfolioById(tx, ctx, portfolioId);
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
      await recordCustomerEvent(tx, ctx, 'customer.created', row!, now);
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
      const now = deps.clock.now();
      const row = await customers.update(current.id, {
        portfolioId,
        thirdpartyId,
        data: checked.data,
        updatedAt: now,
      });
      await recordCustomerEvent(tx, ctx, 'customer.updated', row!, now);
      return toCustomer(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'customers_org_thirdparty_key'))
      throw duplicateThirdpartyId(input.thirdpartyId ?? '');
    throw err;
  }
}

/** How many of a contact's actions and sessions a 409 lists by id (the totals are always given). */
const DEPENDANTS_LISTED = 10;

function contactInUse(found: CustomerDependants): Conflict {
  const { sessionRequests: actions, sessions } = found;
  const details: FieldError[] = [
    {
      field: 'sessionRequests.total',
      in: 'state',
      message: `the contact has ${plural(actions.total, 'action')}`,
      value: String(actions.total),
    },
    ...actions.ids.map((id) => ({
      field: 'sessionRequests',
      in: 'state' as const,
      message: `action ${id} is the contact's`,
      value: id,
    })),
    {
      field: 'sessions.total',
      in: 'state',
      message: `the contact has ${plural(sessions.total, 'submitted session')}`,
      value: String(sessions.total),
    },
    ...sessions.ids.map((id) => ({
      field: 'sessions',
      in: 'state' as const,
      message: `session ${id} was submitted by the contact`,
      value: id,
    })),
  ];
  return new Conflict(
    `The contact has ${plural(actions.total, 'action')} and ${plural(sessions.total, 'submitted session')}: ask for them to be deleted with the contact (cascade=true)`,
    details,
  );
}

/**
 * Records the events of the actions and sessions that go with the contact (sessionrequest.deleted,
 * session.deleted), in the order `customerRepository.remove` deletes them: the actions the contact signs
 * and their sessions, then the contact's other actions and the sessions of those and of the contact's
 * campaign visits. The actions and visitors are locked first; their sessions are read by a statement of
 * its own, which sees every session committed before the locks.
 */
async function announceRemovals(tx: Tx, ctx: RequestContext, id: string): Promise<void> {
  const { actions, visitorIds } = await customerRepository(tx, ctx).lockRemovedWith(id);
  if (actions.length === 0 && visitorIds.length === 0) return;
  const sessions = await sessionsGoingWith(
    tx,
    ctx,
    actions.map((a) => a.id),
    visitorIds,
  );
  const signed = new Set(actions.filter((a) => a.signed).map((a) => a.id));
  const removal = (first: boolean): Removal =>
    removalOf(
      actions
        .filter((a) => signed.has(a.id) === first)
        .map(({ id, type, status, customerId }) => ({ id, type, status, customerId })),
      sessions.filter((s) => signed.has(s.sessionRequestId) === first),
    );
  await recordRemovals(tx, ctx, [removal(true), removal(false)]);
}

/**
 * Deletes a contact. One with actions is a 409 naming how many actions and sessions it has, unless
 * `cascade` (an erasure request): then its actions, their history, sessions, session versions and the
 * files only those sessions listed (reports) go in one transaction, and the files' bytes after it.
 */
export async function deleteCustomer(
  deps: CustomerDeletionDeps,
  ctx: RequestContext,
  id: string,
  opts: { cascade: boolean },
): Promise<void> {
  const removedFiles = await inTenant(deps.database, ctx, async (tx) => {
    const customers = customerRepository(tx, ctx);
    // Locked first: an action being created for the contact commits before its dependants are counted.
    const customer = await customers.find(id, { forUpdate: true });
    if (!customer) throw notFound();
    const dependants = await customers.dependants(customer.id, DEPENDANTS_LISTED);
    const now = deps.clock.now();
    if (dependants.sessionRequests.total === 0 && dependants.sessions.total === 0) {
      await announceRemovals(tx, ctx, customer.id);
      await customers.remove(customer.id);
      await recordCustomerEvent(tx, ctx, 'customer.deleted', customer, now);
      return [];
    }
    if (!opts.cascade) throw contactInUse(dependants);
    // The reports of every session the contact submitted: their own actions' and campaigns' alike.
    const reports = await contactDocumentIds(tx, ctx, customer.id);
    await announceRemovals(tx, ctx, customer.id);
    await customers.remove(customer.id);
    await recordCustomerEvent(tx, ctx, 'customer.deleted', customer, now);
    return removeUnheldFiles(tx, ctx, reports, now);
  });
  for (const file of removedFiles) await deps.storage.remove(file.storageKey);
}
