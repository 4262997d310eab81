import type { SQL } from 'drizzle-orm';
import type { RequestContext } from '../context';
import { Unauthenticated } from '../errors';
import { type Database, enter, queryRows, type Row, type TenantEntry, type Tx } from './database';

const entryOf = (ctx: RequestContext): TenantEntry => ({
  organisationId: ctx.organisationId,
  userId: ctx.userId,
  apiKeyId: ctx.apiKeyId,
  tokenId: ctx.caller.kind === 'bearer' ? ctx.caller.tokenId : null,
  authVersion: ctx.authVersion,
  at: ctx.at,
});

/**
 * Runs `fn` in one transaction scoped to the context's organisation: row-level security shows it
 * nothing else, and the caller's credentials are confirmed current before `fn` starts.
 */
export async function inTenant<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return database.tenantTransaction(entryOf(ctx), async (tx, entered) => {
    if (entered === 'stale') {
      if (!ctx.revalidate) throw new Unauthenticated('Credentials are no longer valid');
      await ctx.revalidate(tx);
      if ((await enter(tx, entryOf(ctx))) === 'stale')
        throw new Unauthenticated('Credentials are no longer valid');
    }
    return fn(tx);
  });
}

/**
 * Runs statements for the context's organisation in one transaction and returns their rows. On the
 * server this is one round trip; when the credentials turn out stale it falls back to inTenant, which
 * re-checks them. The statements run before the entry's answer is known, so statements that write
 * (`writes: true`) are only allowed for a system context, whose entry is never stale.
 */
export async function batchInTenant(
  database: Database,
  ctx: RequestContext,
  statements: SQL[],
  opts: { writes?: boolean } = {},
): Promise<Row[][]> {
  if (opts.writes && ctx.userId !== null) throw new Error('batchInTenant: writes need a system context');
  const batch = await database.tenantBatch(entryOf(ctx), statements);
  if (batch.entered === 'ok') return batch.rows;
  return inTenant(database, ctx, async (tx) => {
    const rows: Row[][] = [];
    for (const statement of statements) rows.push(await queryRows<Row>(tx, statement));
    return rows;
  });
}
