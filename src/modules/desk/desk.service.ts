import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import type { StaffUser } from '../../platform/web/staff-layout';
import { userById } from '../organisations';

export interface DeskDeps {
  database: Database;
  clock: Clock;
}

/** The signed-in user as the page frame shows them. */
export async function staffUserOf(deps: DeskDeps, ctx: RequestContext): Promise<StaffUser> {
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, ctx.userId ?? ''));
  return { name: user?.name ?? '', administrator: ctx.permissions.has('admin') };
}
