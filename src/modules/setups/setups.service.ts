import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { FileStorage } from '../../platform/files/storage';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Gone, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import { matchContacts } from '../customers';
import { fileById, lockSignableFile } from '../files';
import { userById } from '../organisations';
import { type SetupRow, setupRepository } from './setups.repository';
import type {
  ActionSetup,
  ActionSetupBody,
  QuickSigningSetup,
  QuickSigningSetupBody,
} from './setups.schemas';

export interface SetupDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
  baseUrl: string;
  /** How long a setup can be opened (SETUP_TTL_HOURS). */
  ttlMs: number;
}

const notFound = (what: string) => new NotFound(`${what} not found`);

/** A setup that was used or has expired: when, for the wizard's page to say it in the user's words. */
export class SetupGone extends Gone {
  constructor(
    what: string,
    readonly how: 'used' | 'expired',
    readonly at: Date,
  ) {
    super(`${what} ${how === 'used' ? 'was used' : 'expired'} on ${iso(at)}: make a new one`);
  }
}

/** A setup that can no longer be opened says why; one of another kind is not found. */
export function usableSetup(
  row: SetupRow | undefined,
  kind: SetupRow['kind'],
  now: Date,
  what: string,
): SetupRow {
  if (!row || row.kind !== kind) throw notFound(what);
  if (row.usedAt) throw new SetupGone(what, 'used', row.usedAt);
  if (row.expiresAt <= now) throw new SetupGone(what, 'expired', row.expiresAt);
  return row;
}

/**
 * Whose setup it is: one made with a staff user's own credentials (their API key or their browser) is
 * theirs alone — another user of the organisation is told it does not exist; one made with a service
 * user's key (a CRM or ERP server) is for any adviser of the organisation.
 */
export async function checkOwner(tx: Tx, ctx: RequestContext, row: SetupRow, what: string): Promise<void> {
  if (!row.createdBy || row.createdBy === ctx.userId) return;
  const creator = await userById(tx, ctx, row.createdBy);
  if (creator?.kind === 'staff') throw notFound(what);
}

function state(row: SetupRow, url: string) {
  return {
    url,
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    usedAt: isoOrNull(row.usedAt),
    sessionRequestIds: row.sessionRequestIds,
  };
}

/** Spec 4.10: keeps the contact and the document (a signable PDF of the organisation) for the deep link. */
export async function createQuickSigningSetup(
  deps: SetupDeps,
  ctx: RequestContext,
  body: QuickSigningSetupBody,
) {
  const now = deps.clock.now();
  const id = newId(now.getTime());
  await inTenant(deps.database, ctx, async (tx) => {
    const { problem } = await lockSignableFile(tx, ctx, deps.storage, body.document.fileid);
    if (problem) throw BadRequest.field('document.fileid', problem);
    await setupRepository(tx, ctx).insert({
      id,
      kind: 'quicksign',
      payload: { ...body, document: { ...body.document, type: body.document.type ?? 'other' } },
      createdBy: ctx.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.ttlMs),
    });
  });
  return { success: true as const, setupId: id };
}

export async function getQuickSigningSetup(
  deps: SetupDeps,
  ctx: RequestContext,
  id: string,
): Promise<QuickSigningSetup> {
  return inTenant(deps.database, ctx, async (tx) => {
    const repo = setupRepository(tx, ctx);
    const row = usableSetup(await repo.find(id), 'quicksign', deps.clock.now(), 'Quick-signing setup');
    await checkOwner(tx, ctx, row, 'Quick-signing setup');
    const body = row.payload as unknown as QuickSigningSetupBody & { document: { type: string } };
    const file = await fileById(tx, ctx, body.document.fileid);
    if (!file) throw new Gone('The setup’s document was deleted: make a new setup');
    const [contact = null] = await matchContacts(tx, ctx, [
      { thirdpartyId: body.customer.guid, email: body.customer.email },
    ]);
    return {
      setupId: row.id,
      customer: { ...body.customer, contact },
      document: { ...body.document, fileName: file.fileName, size: file.size },
      ...state(row, `${deps.baseUrl}/sessionrequests/quicksigningrequest/${row.id}`),
    };
  });
}

/** Spec 4.11: keeps the contacts to preselect for the deep link. */
export async function createActionSetup(deps: SetupDeps, ctx: RequestContext, body: ActionSetupBody) {
  const now = deps.clock.now();
  const id = newId(now.getTime());
  await inTenant(deps.database, ctx, (tx) =>
    setupRepository(tx, ctx).insert({
      id,
      kind: 'action',
      payload: body,
      createdBy: ctx.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.ttlMs),
    }),
  );
  return { success: true as const, actionSetupId: id };
}

export async function getActionSetup(deps: SetupDeps, ctx: RequestContext, id: string): Promise<ActionSetup> {
  return inTenant(deps.database, ctx, async (tx) => {
    const repo = setupRepository(tx, ctx);
    const row = usableSetup(await repo.find(id), 'action', deps.clock.now(), 'Action setup');
    await checkOwner(tx, ctx, row, 'Action setup');
    const body = row.payload as unknown as ActionSetupBody;
    const matches = await matchContacts(tx, ctx, body.customers);
    return {
      actionSetupId: row.id,
      customers: body.customers.map((c, i) => ({ ...c, contact: matches[i] ?? null })),
      ...state(row, `${deps.baseUrl}/sessionrequests/${row.id}`),
    };
  });
}
