import { sql } from 'drizzle-orm';
import type { RequestContext } from '../context';
import { Unauthenticated } from '../http/errors';
import { type Database, queryRows, type Tx } from './database';

async function enter(tx: Tx, ctx: RequestContext): Promise<'ok' | 'stale'> {
  const rows = await queryRows<{ s: 'ok' | 'stale' }>(
    tx,
    sql`SELECT actiondesk_enter(${ctx.organisationId}::uuid, ${ctx.userId}::uuid, ${ctx.apiKeyId}::uuid, ${ctx.authVersion}::integer, ${ctx.at.toISOString()}::timestamptz) AS s`,
  );
  return rows[0]?.s ?? 'stale';
}

/**
 * Runs `fn` in one transaction scoped to the context's organisation: row-level security shows it
 * nothing else, and the caller's credentials are confirmed current before `fn` starts.
 */
export async function inTenant<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return database.db.transaction(async (tx) => {
    if ((await enter(tx, ctx)) === 'stale') {
      if (!ctx.revalidate) throw new Unauthenticated('Credentials are no longer valid');
      await ctx.revalidate(tx);
      if ((await enter(tx, ctx)) === 'stale') throw new Unauthenticated('Credentials are no longer valid');
    }
    return fn(tx);
  });
}
