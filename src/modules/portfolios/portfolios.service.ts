import type { SQL } from 'drizzle-orm';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { Conflict } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import { customerTotalStatement, type PortfolioRow, portfolioRepository } from './portfolios.repository';
import type { CreatePortfolio, Portfolio } from './portfolios.schemas';

export interface PortfolioDeps {
  database: Database;
  clock: Clock;
}

function toPortfolio(row: PortfolioRow): Portfolio {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    isDefault: row.isDefault,
    customerCount: row.customerCount,
    createdAt: iso(row.createdAt),
  };
}

export async function listPortfolios(deps: PortfolioDeps, ctx: RequestContext, query: WalkQuery = {}) {
  const { walk, answer } = walking('portfolios', query);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) => portfolioRepository(tx, ctx).walk(walk));
  const { items, ...page } = answer(rows, total);
  return { portfolios: items.map(toPortfolio), ...page };
}

/** Creates a portfolio; names are unique per organisation, ignoring case. */
export async function createPortfolio(deps: PortfolioDeps, ctx: RequestContext, input: CreatePortfolio) {
  return inTenant(deps.database, ctx, async (tx) => {
    const repo = portfolioRepository(tx, ctx);
    if (await repo.nameTaken(input.name)) {
      throw new Conflict(`A portfolio named '${input.name}' already exists`, [
        { field: 'name', in: 'body', message: 'is already used by another portfolio' },
      ]);
    }
    const now = deps.clock.now();
    const row = await repo.insert({
      id: newId(now.getTime()),
      name: input.name,
      description: input.description ?? null,
      isDefault: false,
      createdAt: now,
    });
    return toPortfolio(row);
  });
}

/** A portfolio of the organisation by its id (none: not one of its portfolios), for other modules. */
export function portfolioById(tx: Tx, ctx: RequestContext, id: string): Promise<PortfolioRow | undefined> {
  return portfolioRepository(tx, ctx).find(id);
}

/** The portfolio contacts go to when none is named (none: the organisation has none). */
export function defaultPortfolio(tx: Tx, ctx: RequestContext): Promise<PortfolioRow | undefined> {
  return portfolioRepository(tx, ctx).findDefault();
}

/** A new organisation's default portfolio, where contacts created without a portfolio go. */
export function createDefaultPortfolio(tx: Tx, ctx: RequestContext, now: Date): Promise<PortfolioRow> {
  return portfolioRepository(tx, ctx).insert({
    id: newId(now.getTime()),
    name: 'Default',
    description: 'Contacts created without a portfolio',
    isDefault: true,
    createdAt: now,
  });
}

/**
 * The statement counting the organisation's contacts (or one portfolio's) from the portfolios'
 * counters, answering column `n`: for a list to run in the same round trip as its page.
 */
export function contactCountStatement(ctx: RequestContext, portfolioId?: string): SQL {
  return customerTotalStatement(ctx, portfolioId);
}
