import type { Database, Tx } from '../../platform/db/database';
import { inActiveOrOwnTransaction } from '../../platform/db/tenant';
import type { RequestContext } from '../../platform/kernel/context';
import { systemContext } from '../../platform/kernel/context';
import { Forbidden } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { createDefaultPortfolio } from '../portfolios';
import { liveOrganisationOfCurrent, pointAt, testTwin } from './test-twin.repository';

/** Live or test: which records a credential works on (issue 31, docs/decisions/0009). */
export type Mode = 'live' | 'test';

/** The mode of the transaction's organisation: test for a test twin, live otherwise. */
export async function modeOfCurrent(tx: Tx): Promise<Mode> {
  return (await liveOrganisationOfCurrent(tx)) === null ? 'live' : 'test';
}

/**
 * Runs `fn` on the records of `mode` (undefined: the caller's own) in the same transaction: the caller's own organisation when it is
 * of that mode, else its test twin (made on first use when `make`, with its default portfolio; without
 * `make`, `fn` is not run when there is none and the answer is undefined). From a test organisation the
 * live records are out of reach: 403. `fn` gets the context of the organisation it works in, with the
 * caller's user (the twin's users are the live organisation's, kept in step by the database).
 */
export async function inMode<T>(
  tx: Tx,
  ctx: RequestContext,
  mode: Mode | undefined,
  opts: { make: boolean; now: Date },
  fn: (ctx: RequestContext) => Promise<T>,
): Promise<T | undefined> {
  if (mode === undefined) return fn(ctx);
  const current = await modeOfCurrent(tx);
  if (current === mode) return fn(ctx);
  if (current === 'test') {
    throw new Forbidden('Live records are out of reach of test credentials: use a live key or client');
  }
  const id = newId(opts.now.getTime());
  const twin = await testTwin(tx, opts.make ? id : null, opts.now);
  if (twin === null) return undefined;
  await pointAt(tx, twin);
  const twinCtx = { ...ctx, organisationId: twin };
  let answer: T;
  try {
    if (twin === id) await createDefaultPortfolio(tx, twinCtx, opts.now);
    answer = await fn(twinCtx);
  } catch (err) {
    // A failed statement ends the transaction (or its savepoint, which undoes the pointing too).
    await pointAt(tx, ctx.organisationId).catch(() => undefined);
    throw err;
  }
  await pointAt(tx, ctx.organisationId);
  return answer;
}

/** Refuses unless the transaction's organisation is a test organisation (test-only routes). */
export async function requireTestMode(tx: Tx): Promise<void> {
  if ((await modeOfCurrent(tx)) !== 'test') {
    throw new Forbidden(
      'Only in test mode: use a test API key (adk_test_…) or a test OAuth client; live credentials cannot',
    );
  }
}

const modes = new Map<string, Mode>();

/**
 * The mode of an organisation, asked once per process: an organisation is live or test for its whole
 * life (what events say in `livemode`, read without a query after the first).
 */
export async function modeOf(database: Database, organisationId: string): Promise<Mode> {
  const known = modes.get(organisationId);
  if (known) return known;
  const mode = await inActiveOrOwnTransaction(database, systemContext(organisationId), modeOfCurrent);
  if (modes.size >= 100_000) modes.clear();
  modes.set(organisationId, mode);
  return mode;
}
