import type { Clock } from '../clock';
import { systemContext } from '../context';
import type { Database } from '../db/database';
import { inTenant } from '../db/tenant';
import { jobRepository } from './jobs.repository';
import type { ClaimedJob } from './worker';

/** The lease of a job was taken over before its message left: this attempt sends nothing. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/**
 * Records, in a transaction of its own and before a job's message leaves, that this attempt is sending
 * it (the job's `sends`). A message is sent at least once: when an earlier attempt began sending and its
 * outcome was never recorded (the process or the database was lost in between), this one sends again,
 * on purpose, with the same Message-ID or idempotency key (messageKey), logged and counted where the
 * notification is shown. Answers how many attempts had begun sending before this one.
 */
export async function beginSending(
  deps: { database: Database; clock: Clock },
  job: ClaimedJob,
): Promise<number> {
  const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
  const earlier = await inTenant(deps.database, ctx, (tx) =>
    jobRepository(tx, ctx).beginSend(job.id, job.leaseToken),
  );
  if (earlier === null) throw new LeaseLostError('the job’s lease was lost before its message was sent');
  return earlier;
}

/** The stable key of a job's message: its Message-ID's local part, and the SMS provider's idempotency key. */
export function messageKey(job: Pick<ClaimedJob, 'id'>, index = 0): string {
  return index === 0 ? `job-${job.id}` : `job-${job.id}-${index}`;
}
