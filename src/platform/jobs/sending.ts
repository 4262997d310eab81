import { createHash } from 'node:crypto';
import type { Database } from '../db/database';
import { inTenant } from '../db/tenant';
import type { Clock } from '../kernel/clock';
import { systemContext } from '../kernel/context';
import { OutboundRefused } from '../outbound/safe-http';
import { type ClaimedJob, PermanentJobError } from './job';
import { jobRepository } from './jobs.repository';

interface SendingDeps {
  database: Database;
  clock: Clock;
}

/** Runs `fn` on the job's row, in a transaction of its own in the job's organisation. */
function onJob<T>(
  deps: SendingDeps,
  job: ClaimedJob,
  fn: (jobs: ReturnType<typeof jobRepository>) => Promise<T>,
) {
  const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
  return inTenant(deps.database, ctx, (tx) => fn(jobRepository(tx, ctx)));
}

/** The lease of a job was taken over before its message left: this attempt sends nothing. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/**
 * Records, in a transaction of its own and before a job's message leaves, that this attempt is sending
 * it (the job's `sends`). A message is sent at least once: when an earlier attempt began sending and its
 * outcome was never learnt (the process or the database was lost in between), this one sends again, on
 * purpose, with the same Message-ID or idempotency key (messageKey); `sends` then shows 2 where the
 * notification is shown. Answers how many attempts had begun sending before this one.
 */
export async function beginSending(deps: SendingDeps, job: ClaimedJob): Promise<number> {
  const earlier = await onJob(deps, job, (jobs) => jobs.beginSend(job.id, job.leaseToken));
  if (earlier === null) throw new LeaseLostError('the job’s lease was lost before its message was sent');
  return earlier;
}

/**
 * Sends a job's message once per attempt: beginSending first; when the peer answers with a refusal (an
 * SMTP reply code, a provider's error status) the message certainly did not leave, so the mark is taken
 * back and `sends` counts only attempts whose message may have gone. A refusal for good (refusedForGood)
 * fails the job at once: trying again cannot help.
 */
export async function sendOnce<T>(deps: SendingDeps, job: ClaimedJob, send: () => Promise<T>): Promise<T> {
  await beginSending(deps, job);
  try {
    return await send();
  } catch (err) {
    if (wasRefused(err)) {
      // Not taken back (the database is away): counted as a send that may have gone, the safe side.
      await onJob(deps, job, (jobs) => jobs.refusedSend(job.id, job.leaseToken)).catch(() => undefined);
    }
    if (refusedForGood(err)) throw new PermanentJobError((err as Error).message, { cause: err });
    throw err;
  }
}

/** The peer answered and refused: an SMTP reply code (nodemailer's responseCode), or a provider's status. */
function wasRefused(err: unknown): boolean {
  if (err instanceof OutboundRefused) return true;
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 400;
}

/**
 * The SMTP server refused the recipient or the message itself with a permanent reply (5xx, RFC 5321 4.2.1;
 * nodemailer's `permanent`, which leaves out 503, a mere command out of sequence): a bounce such as
 * "550 5.1.1 no such user". Refusals of the session (our sender address, our credentials) are not the
 * message's fault and are retried, as is everything else, so that a mistake in the settings can be put
 * right before the messages waiting run out of attempts.
 */
function refusedForGood(err: unknown): boolean {
  const e = err as { permanent?: unknown; command?: unknown } | null;
  return e?.permanent === true && (e.command === 'RCPT TO' || e.command === 'DATA');
}

/**
 * The stable key of a job's message: its Message-ID's local part, and the SMS provider's idempotency key.
 * A job that writes to several recipients keys each by its address, so a recipient keeps its key when
 * the list changes between attempts.
 */
export function messageKey(job: Pick<ClaimedJob, 'id'>, recipient?: string): string {
  if (recipient === undefined) return `job-${job.id}`;
  const digest = createHash('sha256').update(recipient.toLowerCase()).digest('hex').slice(0, 16);
  return `job-${job.id}-${digest}`;
}
