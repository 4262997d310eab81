import type { RequestContext } from '../../platform/context';
import type { Tx } from '../../platform/db/database';
import { organisationRepository } from './admin.repository';

// The caller's organisation, for other modules: what they read of it and the one setting they change.

export type Organisation = NonNullable<
  Awaited<ReturnType<ReturnType<typeof organisationRepository>['find']>>
>;

/**
 * The caller's organisation (none: it does not exist, e.g. a CLI naming an unknown one);
 * `forUpdate` holds its row to the end of the transaction, for settings that must not change meanwhile.
 */
export function organisationOf(
  tx: Tx,
  ctx: RequestContext,
  opts: { forUpdate?: boolean } = {},
): Promise<Organisation | undefined> {
  return organisationRepository(tx, ctx).find(opts);
}

/** The organisation's name, as documents and messages show it ('' when it does not exist). */
export async function organisationName(tx: Tx, ctx: RequestContext): Promise<string> {
  return (await organisationRepository(tx, ctx).find())?.name ?? '';
}

/** Switches password sign-in for the organisation's staff (the caller checks a way in remains). */
export function setPasswordSignIn(tx: Tx, ctx: RequestContext, on: boolean): Promise<void> {
  return organisationRepository(tx, ctx).setPasswordSignIn(on);
}
