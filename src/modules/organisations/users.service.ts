import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { type UserRow, updateUserPreferences, userRepository } from './organisations.repository';

// What other modules read and change of the organisation's users (staff and service users), in their
// transaction: sign-in, password set-up, single sign-on and its directory sync, OAuth, incidents.

/** A user of the organisation by id (none: not one of its users); `forUpdate` holds the row. */
export function userById(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<UserRow | undefined> {
  return userRepository(tx, ctx).find(id, opts);
}

/** The user with this e-mail address, ignoring case (none: no such user in the organisation). */
export function userByEmail(tx: Tx, ctx: RequestContext, email: string): Promise<UserRow | undefined> {
  return userRepository(tx, ctx).findByEmail(email);
}

/** Every user of the organisation, oldest first. */
export function allUsers(tx: Tx, ctx: RequestContext): Promise<UserRow[]> {
  return userRepository(tx, ctx).list();
}

/** The e-mail addresses of the organisation's active administrators (to tell them of an incident). */
export async function administratorEmails(tx: Tx, ctx: RequestContext): Promise<string[]> {
  return (await userRepository(tx, ctx).administrators()).map((a) => a.email);
}

/** The organisation's active administrators, with the language each chose for the staff pages. */
export function administrators(tx: Tx, ctx: RequestContext) {
  return userRepository(tx, ctx).administrators();
}

/**
 * Holds off, until the transaction ends, every other change that may take an administrator away
 * (see the last-administrator rule); taken before any user row is locked.
 */
export function holdAdministrators(tx: Tx, ctx: RequestContext): Promise<void> {
  return userRepository(tx, ctx).lockAdministrators();
}

/** How many active administrators there are besides `exceptId` (under holdAdministrators). */
export function otherActiveAdministrators(tx: Tx, ctx: RequestContext, exceptId: string): Promise<number> {
  return userRepository(tx, ctx).otherActiveAdministrators(exceptId);
}

/** A new staff user made at sign-in through a provider (just in time). */
export function provisionUser(
  tx: Tx,
  ctx: RequestContext,
  row: Pick<UserRow, 'id' | 'email' | 'name' | 'kind' | 'status' | 'groups' | 'createdAt' | 'updatedAt'>,
): Promise<UserRow> {
  return userRepository(tx, ctx).insert(row);
}

/**
 * Changes a user's name, groups or status; one that takes access away ends the user's browser
 * sessions at once (see the repository's update).
 */
export function changeUser(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  change: Partial<Pick<UserRow, 'name' | 'groups' | 'status' | 'updatedAt'>>,
): Promise<UserRow | undefined> {
  return userRepository(tx, ctx).update(id, change);
}

/** Sets a user's own desk settings: the pages' language (null: the browser's) and their notifications. */
export function setUserPreferences(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  change: Partial<Pick<UserRow, 'language' | 'notify'>>,
): Promise<UserRow | undefined> {
  return updateUserPreferences(tx, ctx, id, { ...change, updatedAt: ctx.at });
}

/** Sets (or, with null, removes) a user's password hash. */
export function setUserPassword(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  hash: string | null,
  at: Date,
): Promise<boolean> {
  return userRepository(tx, ctx).setPassword(id, hash, at);
}
