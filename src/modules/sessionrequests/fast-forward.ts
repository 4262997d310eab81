import { auditRepository } from '../../platform/audit/audit.repository';
import { inTenant } from '../../platform/db/tenant';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { RequestContext } from '../../platform/kernel/context';
import { Conflict, NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { requireTestMode } from '../organisations';
import { isOpen } from './sessionrequests.lifecycle';
import { sessionRequestRepository } from './sessionrequests.repository';
import { getSessionRequest, type SessionRequestDeps } from './sessionrequests.service';
import { EXPIRY_JOB, NOTIFICATION_JOB } from './sessionrequests.view';

/** What a test may make happen now instead of waiting: the action's next reminder, or its expiry. */
export type FastForwardTo = 'next-reminder' | 'expiry';

/**
 * Test mode's fast-forward (issue 31): makes the action's next reminders (every channel of the earliest
 * one still to come) or its expiry due now, and wakes the worker, so a script sees the reminder in the
 * test inbox or the action expired without waiting days. Answers the action as it stands (its
 * notifications show the reminders due now); the worker does the rest, as it would have.
 */
export async function fastForward(
  deps: SessionRequestDeps & { jobs: { wake(): void } },
  ctx: RequestContext,
  id: string,
  to: FastForwardTo,
) {
  const now = deps.clock.now();
  await inTenant(deps.database, ctx, async (tx) => {
    await requireTestMode(tx);
    const row = isId(id) ? await sessionRequestRepository(tx, ctx).find(id, { forUpdate: true }) : undefined;
    if (!row) throw new NotFound('Session request not found');
    if (!isOpen(row.status))
      throw Conflict.state(
        `The action is ${row.status}: nothing is left to fast-forward`,
        'status',
        row.status,
      );
    const jobs = jobRepository(tx, ctx);
    await auditRepository(tx, ctx).record({
      action: 'session_request.fast_forwarded',
      targetType: 'session_request',
      targetId: row.id,
      summary: { to },
    });
    if (to === 'expiry') {
      if (!row.expiresAt)
        throw Conflict.state(
          'The action has no expiry (expiresAt): nothing to fast-forward',
          'expiresAt',
          'null',
        );
      await sessionRequestRepository(tx, ctx).moveExpiry(row.id, now);
      await jobs.bringForward(
        (await jobs.pendingOf(row.id, EXPIRY_JOB)).map((j) => j.id),
        now,
      );
      return;
    }
    const later = (await jobs.pendingOf(row.id, NOTIFICATION_JOB)).filter((j) => j.runAt > now);
    const next = Math.min(...later.map((j) => j.runAt.getTime()));
    const due = later.filter((j) => j.runAt.getTime() === next);
    if (due.length === 0)
      throw Conflict.state('No reminder of the action is still to come', 'reminders', 'none');
    await jobs.bringForward(
      due.map((j) => j.id),
      now,
    );
  });
  deps.jobs.wake();
  return getSessionRequest(deps, ctx, id);
}
