import { auditRepository } from '../../platform/audit/audit.repository';
import { type Database, isoTimestamp, type Row, type Tx } from '../../platform/db/database';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import type { FileStorage } from '../../platform/files/storage';
import type { JobSignal } from '../../platform/jobs/job';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { keysetOf, keysetPage, SYNC_TOTAL_CAP } from '../../platform/lists/cursor';
import { contactById } from '../customers';
import {
  type DeskFilter,
  eventFromRaw,
  jobFromRaw,
  sessionRequestStatements,
  signerSummariesFromRaw,
} from './action-reads.repository';
import { checkExpiry, checkReachable, checkReminders, Problems } from './sessionrequests.checks';
import { isAwaiting, isSigningType } from './sessionrequests.lifecycle';
import {
  type Actor,
  actorOf,
  sessionRequestFromRaw,
  sessionRequestRepository,
} from './sessionrequests.repository';
import type {
  ListSessionRequestsQuery,
  ReopenSessionRequest,
  SessionRequestDetail,
} from './sessionrequests.schemas';
import { applyTransition, type TransitionDeps } from './sessionrequests.transitions';
import {
  channelsOf,
  expiryJob,
  notificationFromJob,
  notificationJobs,
  toDetail,
  toSessionRequest,
} from './sessionrequests.view';
import { signerRepository } from './signers.repository';

export interface SessionRequestDeps {
  database: Database;
  clock: Clock;
  /** Where the quicksign document's bytes are (checked to be a PDF that can be signed). */
  storage: FileStorage;
  /** Whether a qualified trust service is configured (signatureLevel: qualified). */
  qualifiedSigning: boolean;
  baseUrl: string;
  /** Region in which a phone number without a country code is read. */
  phoneRegion: string;
  jobs: JobSignal;
}

const notFound = () => new NotFound('Session request not found');

export async function listSessionRequests(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  query: ListSessionRequestsQuery & { desk?: DeskFilter },
) {
  if (query.customerId !== undefined && !isId(query.customerId))
    throw BadRequest.field('customerId', 'is not a valid contact id', 'query');
  // `updatedSince` with `page` (before cursors, the way to page a sync): still by offset, in update order.
  const byOffset = query.page > 1 && query.updatedSince !== undefined && query.startingAfter === undefined;
  const bound = {
    status: query.status,
    customerId: query.customerId,
    type: query.type,
    search: query.search,
  };
  const keyset = byOffset ? null : keysetOf('sessionrequests', query, bound);
  const since = keyset?.since ?? (byOffset ? new Date(query.updatedSince as string) : undefined);
  const filter = { ...bound, updatedSince: since, desk: query.desk };
  // A walk by cursor counts up to a cap (each of its pages would otherwise count every matching row).
  const cap = keyset ? SYNC_TOTAL_CAP : undefined;
  const statements = sessionRequestStatements(deps.database.db, ctx);
  const [rows = [], totals = []] = await batchInTenant(deps.database, ctx, [
    // By cursor, the keyset alone decides which changes come (see keysetSql); the total counts by time.
    keyset
      ? statements.keyset({ ...filter, updatedSince: undefined }, keyset, query.limit)
      : statements.page(filter, query),
    statements.count(filter, cap),
  ]);
  const counted = Number(totals[0]?.n ?? 0);
  const total = cap === undefined ? counted : Math.min(counted, cap);
  const order = keyset?.order ?? (since ? 'updated' : 'created');
  const keyOf = (r: Row) => ({
    at: new Date(isoTimestamp(r.created_at)),
    txid: String(r.change_txid),
    id: r.id as string,
  });
  const page = keysetPage('sessionrequests', rows, query.limit, order, keyOf, {
    since,
    askedWith: query.startingAfter,
    filters: bound,
  });
  return {
    sessionRequests: page.items.map((r) =>
      toSessionRequest(sessionRequestFromRaw(r), signerSummariesFromRaw(r), deps.baseUrl),
    ),
    total,
    totalIsEstimate: cap !== undefined && counted > cap,
    hasMore: keyset ? page.hasMore : (query.page - 1) * query.limit + rows.length < total,
    nextCursor: page.nextCursor,
  };
}

/** The action with its notifications and status history, read in one round trip. */
export async function getSessionRequest(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  id: string,
): Promise<SessionRequestDetail> {
  if (!isId(id)) throw notFound();
  const statements = sessionRequestStatements(deps.database.db, ctx);
  const [rows = [], events = [], jobs = []] = await batchInTenant(deps.database, ctx, [
    statements.one(id),
    statements.events(id),
    statements.notifications(id),
  ]);
  const row = rows[0];
  if (!row) throw notFound();
  const history = events.map(eventFromRaw).map((e) => ({
    from: e.fromStatus,
    to: e.toStatus,
    at: iso(e.at),
    actor: e.actor,
    userId: e.userId,
  }));
  return toDetail(
    toSessionRequest(sessionRequestFromRaw(row), signerSummariesFromRaw(row), deps.baseUrl),
    jobs.map(jobFromRaw).map(notificationFromJob),
    history,
  );
}

async function transitionAndRead(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  id: string,
  fn: (tx: Tx) => Promise<unknown>,
): Promise<SessionRequestDetail> {
  await inTenant(deps.database, ctx, fn);
  deps.jobs.wake();
  return getSessionRequest(deps, ctx, id);
}

/** Reopens a completed action for corrections; sends nothing unless asked (spec 4.7). */
export async function reopenSessionRequest(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  id: string,
  input: ReopenSessionRequest,
): Promise<SessionRequestDetail> {
  const now = deps.clock.now();
  const channels = channelsOf(input);
  const asked = new Problems();
  checkReminders(input, channels, asked);
  checkExpiry(input.expiresAt, now, asked);
  asked.throwIfAny();
  return transitionAndRead(deps, ctx, id, async (tx) => {
    const found = await sessionRequestRepository(tx, ctx).find(id);
    if (!found) throw notFound();
    if (isSigningType(found.type))
      throw Conflict.state(
        `Cannot reopen a ${found.type} action: its document is signed and sealed; create a new action to sign again`,
        'type',
        found.type,
      );
    if (found.status === 'completed') {
      const problems = new Problems();
      const expiry = input.expiresAt ? new Date(input.expiresAt) : found.expiresAt;
      if (expiry && expiry <= now)
        problems.add('expiresAt', 'the action’s expiry has passed: send a new expiresAt to reopen it');
      if (found.customerId && (channels.email || channels.sms))
        checkReachable(
          (await contactById(tx, ctx, found.customerId))?.data,
          channels,
          deps.phoneRegion,
          problems,
        );
      if (!found.customerId && (channels.email || channels.sms))
        problems.add(
          channels.email ? 'notificationEmail.send' : 'notificationSms.send',
          'a campaign has no contact to notify',
        );
      problems.throwIfAny();
    }
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : found.expiresAt;
    const row = await applyTransition(deps, tx, ctx, id, 'reopen', actorOf(ctx), {
      completedAt: null,
      expiresAt,
    });
    const jobs = notificationJobs(row.id, channels, 'reopened', input.reminderSchedule, now);
    if (expiresAt) jobs.push(expiryJob(row.id, expiresAt));
    await jobRepository(tx, ctx).enqueue(jobs, now);
  });
}

/** Withdraws an open action at once: the link stops working and pending notifications are cancelled (spec 4.8). */
export function deactivateSessionRequest(deps: SessionRequestDeps, ctx: RequestContext, id: string) {
  return transitionAndRead(deps, ctx, id, (tx) =>
    applyTransition(deps, tx, ctx, id, 'deactivate', actorOf(ctx)),
  );
}

/**
 * Sends the invitation again, now, on the action's channels (no new reminders): to the contact, or on a
 * signing action to each signer who was invited and has not yet signed or declined. Refused (409, named)
 * when the action is closed or sends no messages.
 */
export async function resendInvitation(deps: SessionRequestDeps, ctx: RequestContext, id: string) {
  return transitionAndRead(deps, ctx, id, async (tx) => {
    const found = await sessionRequestRepository(tx, ctx).find(id, { forUpdate: true });
    if (!found) throw notFound();
    if (!isAwaiting(found.status))
      throw Conflict.state(
        `Cannot send the invitation of a ${found.status} action again`,
        'status',
        found.status,
      );
    if (!found.notifyEmail && !found.notifySms)
      throw Conflict.state(
        'The action sends no messages (neither e-mail nor SMS): share its link yourself',
        'notificationEmail',
        'off',
      );
    const channels = { email: found.notifyEmail, sms: found.notifySms };
    const now = deps.clock.now();
    const signing = isSigningType(found.type);
    const to = signing
      ? (await signerRepository(tx, ctx).ofAction(id))
          .filter((g) => g.status === 'pending' && g.invitedAt)
          .map((g) => g.id)
      : [undefined];
    const jobs = to.flatMap((signerId) =>
      notificationJobs(id, channels, 'invitation', undefined, now, signerId),
    );
    await jobRepository(tx, ctx).enqueue(jobs, now);
    await auditRepository(tx, ctx).record({
      action: 'session_request.invitation_resent',
      targetType: 'session_request',
      targetId: id,
      summary: {
        signerIds: to.filter(Boolean),
        channels: (['email', 'sms'] as const).filter((c) => channels[c]),
      },
    });
  });
}

/** Marks a created or sent action opened: the contact opened the link (in the caller's transaction). */
export function openSessionRequest(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  actor: Actor,
) {
  return applyTransition(deps, tx, ctx, id, 'open', actor);
}

/** Marks an open action completed (the respondent's submission calls this in its own transaction). */
export function completeSessionRequest(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  actor: Actor,
) {
  return applyTransition(deps, tx, ctx, id, 'complete', actor);
}
