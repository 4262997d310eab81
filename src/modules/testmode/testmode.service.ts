import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { FileStorage } from '../../platform/files/storage';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { keysetOf, keysetPage } from '../../platform/lists/cursor';
import { inMode, requireTestMode, wipeTestOrganisation } from '../organisations';
import { type TestMessageRow, testMessageRepository } from './testmode.repository';
import type { ListTestMessagesQuery, TestMessage } from './testmode.schemas';

export interface TestModeDeps {
  database: Database;
  clock: Clock;
  storage: FileStorage;
}

function toTestMessage(row: TestMessageRow): TestMessage {
  return {
    _id: row.id,
    channel: row.channel,
    to: row.to,
    sender: row.sender,
    subject: row.subject,
    text: row.text,
    html: row.html,
    links: row.links,
    code: row.code,
    kind: row.jobKind ?? 'message',
    subjectId: row.subjectId,
    attachments: row.attachments,
    createdAt: iso(row.createdAt),
  };
}

/** The test inbox, newest first (test mode only). */
export async function listTestMessages(
  deps: TestModeDeps,
  ctx: RequestContext,
  query: ListTestMessagesQuery,
) {
  const filters = { to: query.to?.toLowerCase(), channel: query.channel, subjectId: query.subjectId };
  const keyset = keysetOf('testmessages', { startingAfter: query.startingAfter }, filters);
  const after = keyset?.after?.at ? { at: keyset.after.at, id: keyset.after.id } : undefined;
  const rows = await inTenant(deps.database, ctx, async (tx) => {
    await requireTestMode(tx);
    return testMessageRepository(tx, ctx).list({ ...filters, after }, query.limit);
  });
  const page = keysetPage(
    'testmessages',
    rows,
    query.limit,
    'created',
    (r) => ({ at: r.createdAt, id: r.id }),
    {
      askedWith: query.startingAfter,
      filters,
    },
  );
  return { messages: page.items.map(toTestMessage), hasMore: page.hasMore, nextCursor: page.nextCursor };
}

/**
 * The test inbox as an administrator's staff page shows it, from the live organisation: its test twin's
 * messages, newest first, filtered by recipient; `twin` false while the organisation has no test data.
 */
export async function testInboxOfLive(
  deps: TestModeDeps,
  ctx: RequestContext,
  query: { to?: string; limit: number },
): Promise<{ twin: boolean; messages: TestMessage[]; more: boolean }> {
  const filter = {
    to: query.to?.trim().toLowerCase() || undefined,
    channel: undefined,
    subjectId: undefined,
  };
  const rows = await inTenant(deps.database, ctx, (tx) =>
    inMode(tx, ctx, 'test', { make: false, now: deps.clock.now() }, (twin) =>
      testMessageRepository(tx, twin).list(filter, query.limit),
    ),
  );
  const kept = rows ?? [];
  return {
    twin: rows !== undefined,
    messages: kept.slice(0, query.limit).map(toTestMessage),
    more: kept.length > query.limit,
  };
}

/** One message of the test inbox (test mode only). */
export async function getTestMessage(deps: TestModeDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, async (tx) => {
    await requireTestMode(tx);
    return isId(id) ? testMessageRepository(tx, ctx).find(id) : undefined;
  });
  if (!row) throw new NotFound('Test message not found');
  return toTestMessage(row);
}

/** Wipes the test organisation's records (test mode only; see wipeTestOrganisation). */
export async function wipeTestData(deps: TestModeDeps, ctx: RequestContext) {
  await inTenant(deps.database, ctx, (tx) => requireTestMode(tx));
  const { counts } = await wipeTestOrganisation(deps, ctx);
  return { deleted: counts };
}
