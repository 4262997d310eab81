import type { Tx } from '../../platform/db/database';
import { jobRepository, type NewJob } from '../../platform/jobs/jobs.repository';
import type { RequestContext } from '../../platform/kernel/context';
import type { SessionRequestRow } from './sessionrequests.repository';
import type { TransitionDeps } from './sessionrequests.transitions';
import { notificationJobs } from './sessionrequests.view';
import { type SignerRow, signerRepository } from './signers.repository';

/** When signers may be invited: the action is made, its report (the document to sign) is ready, someone signed. */
export type InviteMoment = 'created' | 'report-ready' | 'signed';

/**
 * The signers to invite now (docs/signing.md#order):
 * - made: a quicksign's signers (all in parallel order, the first in sequential order); a multisigning's
 *   first signer, who answers the questionnaire;
 * - its report ready (multisigning, parallel): every other signer;
 * - someone signed (sequential): the next signer who has not signed.
 */
function signersToInvite(
  action: Pick<SessionRequestRow, 'type' | 'signingOrder'>,
  signers: SignerRow[],
  moment: InviteMoment,
): SignerRow[] {
  const waiting = signers.filter((s) => s.status === 'pending' && !s.invitedAt);
  const sequential = action.signingOrder === 'sequential';
  switch (moment) {
    case 'created':
      return action.type === 'quicksign' && !sequential ? waiting : waiting.filter((s) => s.position === 0);
    case 'report-ready':
      return sequential ? [] : waiting;
    case 'signed': {
      if (!sequential) return [];
      const next = signers.find((s) => s.status === 'pending');
      return next && !next.invitedAt ? [next] : [];
    }
  }
}

/**
 * Queues the invitation (and reminders) of the signers due at `moment`, on the action's channels, and
 * marks them invited; in the caller's transaction. Signers are marked invited without channels too:
 * it is then up to the adviser to share their links.
 */
export async function inviteSigners(
  deps: TransitionDeps,
  tx: Tx,
  ctx: RequestContext,
  action: SessionRequestRow,
  moment: InviteMoment,
): Promise<{ invited: SignerRow[]; jobs: NewJob[] }> {
  const repo = signerRepository(tx, ctx);
  const due = signersToInvite(action, await repo.ofAction(action.id), moment);
  if (due.length === 0) return { invited: [], jobs: [] };
  const now = deps.clock.now();
  const channels = { email: action.notifyEmail, sms: action.notifySms };
  const reminders = {
    reminder1Days: action.reminder1Days ?? undefined,
    reminder2Days: action.reminder2Days ?? undefined,
  };
  const jobs = due.flatMap((s) => notificationJobs(action.id, channels, 'invitation', reminders, now, s.id));
  if (jobs.length > 0) await jobRepository(tx, ctx).enqueue(jobs, now);
  for (const s of due) await repo.update(s.id, { invitedAt: now }, now);
  return { invited: due, jobs };
}
