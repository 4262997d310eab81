import type { Clock } from '../../platform/clock';
import type { RequestContext } from '../../platform/context';
import { type WalkQuery, walking } from '../../platform/cursor';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { Conflict } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { iso } from '../../platform/schemas';
import { type PortfolioRow, portfolioRepository } from './portfolios.repository';
import type { CreatePortfolio, Portfolio } from './portfolios.schemas';

export interface PortfolioDeps {
  database: Database;
  clock: Clock;
}

export function toPortfolio(row: PortfolioRow): Portfolio {
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
