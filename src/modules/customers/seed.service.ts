import { randomBytes } from 'node:crypto';
import { auditRepository } from '../../platform/audit/audit.repository';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { organisationOf } from '../organisations';
import { defaultPortfolio } from '../portfolios';
import { customerRepository } from './customers.repository';
import { demoContactData } from './demo-data';

const BATCH = 1000;

/** Adds `count` demo contacts to the organisation's default portfolio, in batches of one transaction each. */
export async function seedContacts(
  deps: { database: Database; clock: Clock },
  organisationId: string,
  count: number,
  onProgress: (done: number) => void = () => undefined,
): Promise<{ portfolioId: string; created: number }> {
  const ctx = systemContext(organisationId, deps.clock.now(), 'seed');
  const portfolioId = await inTenant(deps.database, ctx, async (tx) => {
    if (!(await organisationOf(tx, ctx))) throw new NotFound(`Organisation ${organisationId} not found`);
    const portfolio = await defaultPortfolio(tx, ctx);
    if (!portfolio) throw new NotFound(`Organisation ${organisationId} has no default portfolio`);
    return portfolio.id;
  });
  const run = randomBytes(3).toString('hex');
  let done = 0;
  while (done < count) {
    const size = Math.min(BATCH, count - done);
    const start = done;
    await inTenant(deps.database, ctx, async (tx) => {
      // One event for the whole seed (below), not one per demo contact.
      await auditRepository(tx, ctx).replaceRowRecords();
      const base = deps.clock.now().getTime();
      return customerRepository(tx, ctx).insert(
        Array.from({ length: size }, (_, i) => {
          const n = start + i + 1;
          const at = new Date(base + i);
          return {
            id: newId(at.getTime()),
            portfolioId,
            thirdpartyId: `seed-${run}-${n}`,
            data: demoContactData(n),
            createdAt: at,
            updatedAt: at,
          };
        }),
      );
    });
    done += size;
    onProgress(done);
  }
  await inTenant(deps.database, ctx, (tx) =>
    auditRepository(tx, ctx).record({
      action: 'customer.seeded',
      targetType: 'portfolio',
      targetId: portfolioId,
      summary: { created: done, thirdpartyIds: `seed-${run}-1 … seed-${run}-${done}` },
    }),
  );
  return { portfolioId, created: done };
}
