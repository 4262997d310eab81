import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { createDefaultPortfolio } from '../portfolios';
import { organisationRepository, userRepository } from './organisations.repository';
import { issueApiKey } from './organisations.service';

export interface BootstrapInput {
  organisation: string;
  email: string;
  name?: string;
}

export interface BootstrapResult {
  organisationId: string;
  userId: string;
  portfolioId: string;
  apiKey: string;
}

/** Creates an organisation with an administrator, a default portfolio and the administrator's first key. */
export async function bootstrapOrganisation(
  deps: { database: Database; clock: Clock },
  input: BootstrapInput,
): Promise<BootstrapResult> {
  const now = deps.clock.now();
  const ctx = systemContext(newId(now.getTime()), now, 'bootstrap');
  return inTenant(deps.database, ctx, async (tx) => {
    await organisationRepository(tx, ctx).insert(input.organisation, now);
    const user = await userRepository(tx, ctx).insert({
      id: newId(now.getTime()),
      email: input.email,
      name: input.name ?? input.email.split('@')[0] ?? input.email,
      kind: 'staff',
      status: 'active',
      groups: ['administrator'],
      createdAt: now,
      updatedAt: now,
    });
    const portfolio = await createDefaultPortfolio(tx, ctx, now);
    const key = await issueApiKey(tx, ctx, user.id, 'bootstrap', now);
    return {
      organisationId: ctx.organisationId,
      userId: user.id,
      portfolioId: portfolio.id,
      apiKey: key.apiKey,
    };
  });
}
