import type { Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { matchContactRows } from './contact-match.repository';
import { type CustomerRecord, customerRepository } from './customers.repository';
import { recordCustomerEvent } from './customers.service';

// What other modules read and change of contacts, in their own transaction: a change records its
// customer.created or customer.updated event there too, as the API's own changes do.

/** A contact of the organisation by its id (none: not one of its contacts); `forUpdate` holds the row. */
export function contactById(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRecord | undefined> {
  return customerRepository(tx, ctx).find(id, opts);
}

/** Whether a contact of the organisation already has this CRM reference (thirdpartyId). */
export async function thirdpartyIdTaken(tx: Tx, ctx: RequestContext, thirdpartyId: string): Promise<boolean> {
  return (await customerRepository(tx, ctx).findByThirdpartyId(thirdpartyId)) !== undefined;
}

/** The contact of a portfolio with this e-mail address, if any. */
export function contactByEmail(
  tx: Tx,
  ctx: RequestContext,
  portfolioId: string,
  email: string,
): Promise<CustomerRecord | undefined> {
  return customerRepository(tx, ctx).findByEmail(portfolioId, email);
}

/**
 * The organisation's contacts these people are, in order (null: none): by thirdpartyId first, then by
 * e-mail address (any case; the oldest contact with it). A CRM's setup names its people this way.
 */
export function matchContacts(
  tx: Tx,
  ctx: RequestContext,
  people: { thirdpartyId?: string; email?: string }[],
): Promise<({ _id: string; by: 'thirdpartyId' | 'email' } | null)[]> {
  return matchContactRows(tx, ctx, people);
}

/** Creates a contact, with its customer.created event. */
export async function insertContact(
  tx: Tx,
  ctx: RequestContext,
  contact: { portfolioId: string; thirdpartyId: string | null; data: Record<string, string> },
  now: Date,
): Promise<CustomerRecord> {
  const [row] = await customerRepository(tx, ctx).insert([
    { id: newId(now.getTime()), ...contact, createdAt: now, updatedAt: now },
  ]);
  await recordCustomerEvent(tx, ctx, 'customer.created', row!, now);
  return row!;
}

/** Changes a contact's CRM reference and data, with its customer.updated event (none: it has gone). */
export async function updateContact(
  tx: Tx,
  ctx: RequestContext,
  current: CustomerRecord,
  change: { thirdpartyId: string | null; data: Record<string, string> },
  now: Date,
): Promise<CustomerRecord | undefined> {
  const row = await customerRepository(tx, ctx).update(current.id, {
    portfolioId: current.portfolioId,
    ...change,
    updatedAt: now,
  });
  if (row) await recordCustomerEvent(tx, ctx, 'customer.updated', row, now);
  return row;
}
