import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database, Tx } from '../../platform/db/database';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import {
  type ClaimedJob,
  type JobHandler,
  PermanentJobError,
  RetryLaterError,
} from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { jobRepository, type SettleItem, settleStatement } from '../../platform/jobs/jobs.repository';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Clock } from '../../platform/kernel/clock';
import { coalescer } from '../../platform/kernel/coalesce';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import { type Metrics, statusClass } from '../../platform/ops/metrics';
import type { Mailer } from '../../platform/outbound/mail';
import type { SafeHttpClient } from '../../platform/outbound/safe-http';
import { textParagraphs } from '../../platform/web/html';
import { toEvent } from '../events';
import { administratorEmails, modeOf } from '../organisations';
import { deliveryRepository } from './deliveries.repository';
import {
  type DeliveryToSend,
  deliveryStatements,
  type RecordedAttempt,
  toDeliveryToSend,
} from './delivery-statements.repository';
import { webhookRepository } from './webhooks.repository';
import { sendSigned } from './webhooks.signatures';

/**
 * Delays before attempts 2–8: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 18 h — a day and a half in all
 * (35.6 h), each ±10 % so retries do not come in waves.
 */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 64_800_000];
/** An endpoint that fails without a single success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * Why a delivery of an endpoint disabled for failing is cancelled: recorded on the deliveries queued when
 * it was disabled and on those of events written while it stays disabled.
 */
export const DISABLED_FOR_FAILING =
  'the webhook was disabled after failing for 3 days: redeliver once it is enabled again';

export const retryDelayMs = (attempt: number, random: () => number = Math.random): number => {
  const base = RETRY_SCHEDULE_MS[Math.min(attempt, RETRY_SCHEDULE_MS.length) - 1] ?? RETRY_SCHEDULE_MS[0]!;
  return Math.round(base * (0.9 + 0.2 * random()));
};

/**
 * One delivery of one event to one endpoint (its subject is the delivery's id). Queued in the statement
 * that records the event (webhookFanOut, fan-out.repository.ts, takes this kind and maxAttempts).
 */
export const webhookDeliveryJob = defineJob({
  kind: 'webhook-delivery',
  payload: z.strictObject({}),
  maxAttempts: RETRY_SCHEDULE_MS.length + 1,
  // The request's own limit (at most 30 s) ends a hung delivery first.
  timeoutMs: 45_000,
  retryDelayMs: (attempt) => retryDelayMs(attempt),
});

/** Tells the organisation's administrators that a webhook was disabled after failing for 3 days. */
export const webhookDisabledNoticeJob = defineJob({
  kind: 'webhook-disabled-notice',
  payload: z.strictObject({ webhookId: z.string() }),
  maxAttempts: 8,
  timeoutMs: 90_000,
});

export interface DeliveryDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  http: SafeHttpClient;
  timeoutMs: number;
  /** Where attempts are counted, by outcome and answer. */
  metrics?: Metrics;
}

/** The system context a delivery runs in, for the organisation of its job. */
const deliveryContext = (deps: DeliveryDeps, organisationId: string) =>
  systemContext(organisationId, deps.clock.now(), 'webhook delivery');

/** Reads the deliveries claimed together, with their endpoints and events, in one statement. */
function deliveryLoader(deps: DeliveryDeps) {
  return coalescer<string, DeliveryToSend | undefined>(async (organisationId, ids) => {
    const ctx = deliveryContext(deps, organisationId);
    const [rows = []] = await batchInTenant(deps.database, ctx, [deliveryStatements(ctx).load(ids)]);
    const byId = new Map(rows.map((r) => [r.id as string, toDeliveryToSend(r)]));
    return ids.map((id) => byId.get(id));
  });
}

/** A successful attempt to record, with its job's outcome. */
type Success = { attempt: RecordedAttempt; job: SettleItem };

/**
 * Records successes with their jobs' outcomes, in one transaction for all found together. When that
 * transaction fails, each is tried on its own, so one bad row does not fail the others.
 */
function successRecorder(deps: DeliveryDeps) {
  const recordTogether = async (organisationId: string, items: Success[]): Promise<boolean[]> => {
    const ctx = deliveryContext(deps, organisationId);
    const statements = deliveryStatements(ctx);
    const attempts = items.map((i) => i.attempt);
    const withSubject = attempts.filter((a) => a.subjectId !== null);
    const results = await batchInTenant(
      deps.database,
      ctx,
      [
        statements.lockForRecord(attempts.map((a) => a.deliveryId)),
        statements.record(attempts),
        statements.healthy([...new Set(attempts.map((a) => a.endpointId))]),
        ...(withSubject.length > 0 ? [statements.wakeNext(withSubject, deps.clock.now())] : []),
        settleStatement(items.map((i) => i.job)),
      ],
      { writes: true },
    );
    const settled = new Set((results.at(-1) ?? []).map((r) => r.id as string));
    return items.map((i) => settled.has(i.job.id));
  };
  return coalescer<Success, boolean | Error>(async (organisationId, items) => {
    try {
      return await recordTogether(organisationId, items);
    } catch (err) {
      if (items.length === 1) return [err as Error];
      return Promise.all(
        items.map((item) =>
          recordTogether(organisationId, [item]).then(
            ([settled]) => settled ?? false,
            (e: unknown) => e as Error,
          ),
        ),
      );
    }
  });
}

/**
 * Puts the job back to wait behind an earlier pending delivery of the same subject. The earlier
 * delivery wakes this one when it finishes; until then, look again at its next attempt, and at least
 * every minute.
 */
async function waitBehindEarlier(
  deps: DeliveryDeps,
  ctx: RequestContext,
  job: ClaimedJob<Record<string, never>>,
  delivery: { subjectId: string; endpointId: string; eventSeq: number },
  blockedUntil: Date,
  now: Date,
) {
  const later = Math.min(
    Math.max(blockedUntil.getTime() + 1000, now.getTime() + 5000),
    now.getTime() + 60_000,
  );
  const statement = deliveryStatements(ctx).deferBehind(
    delivery,
    { id: job.id, leaseToken: job.leaseToken },
    new Date(later),
    now,
  );
  const [rows = []] = await batchInTenant(deps.database, ctx, [statement], { writes: true });
  return { settled: rows.length > 0 };
}

/**
 * Records a failed attempt (the last one fails the delivery and lets the next of its subject go). An
 * endpoint that has been failing for DISABLE_AFTER_MS is disabled, its queued deliveries are
 * cancelled and its administrators are told.
 */
async function recordFailure(
  tx: Tx,
  ctx: RequestContext,
  recorded: RecordedAttempt,
  opts: { final: boolean; error: string | null },
): Promise<void> {
  const { endpointId, outcome } = recorded;
  const at = outcome.at;
  const statements = deliveryStatements(ctx);
  await tx.execute(statements.record([recorded]));
  if (opts.final && recorded.subjectId) await tx.execute(statements.wakeNext([recorded], at));
  const repo = webhookRepository(tx, ctx);
  const failing = await repo.markFailing(endpointId, at);
  if (
    failing?.enabled &&
    failing.failingSince &&
    at.getTime() - failing.failingSince.getTime() >= DISABLE_AFTER_MS
  ) {
    await repo.update(endpointId, {
      enabled: false,
      disabledReason: `every delivery failed from ${failing.failingSince.toISOString()} to ${at.toISOString()} (last: ${opts.error ?? 'no answer'})`,
      updatedAt: at,
    });
    await deliveryRepository(tx, ctx).cancelQueued(endpointId, DISABLED_FOR_FAILING, at);
    await jobRepository(tx, ctx).enqueue(
      [
        webhookDisabledNoticeJob.job({
          subjectId: endpointId,
          payload: { webhookId: endpointId },
          runAt: at,
        }),
      ],
      at,
    );
  }
}

/**
 * Delivers one event to one endpoint. A delivery whose webhook was disabled is cancelled; one behind
 * an earlier pending delivery of the same subject waits for it (that keeps an action's events in
 * order); any 2xx is success; otherwise the attempt is recorded and retried on RETRY_SCHEDULE_MS, and
 * the last failure fails the delivery. An endpoint that has been failing for DISABLE_AFTER_MS is
 * disabled and the administrators are told. Deliveries claimed together are read in one statement
 * and their successes recorded in one transaction.
 */
export function webhookDeliveryHandler(deps: DeliveryDeps): JobHandler<Record<string, never>> {
  const load = deliveryLoader(deps);
  const recordSuccesses = successRecorder(deps);
  return async (job, signal) => {
    const ctx = deliveryContext(deps, job.organisationId);
    const found = await load(job.organisationId, job.subjectId ?? '');
    if (!found) return { cancelled: 'the delivery no longer exists' };
    const { delivery, endpoint, event, blockedUntil } = found;
    if (delivery.status !== 'pending') return { cancelled: `the delivery is already ${delivery.status}` };
    const now = deps.clock.now();
    if (!endpoint.enabled) {
      await inTenant(deps.database, ctx, (tx) =>
        deliveryRepository(tx, ctx).cancel(delivery.id, 'the webhook is disabled', now),
      );
      return { cancelled: 'the webhook is disabled' };
    }
    if (blockedUntil && delivery.subjectId) {
      const subject = { subjectId: delivery.subjectId, endpointId: endpoint.id, eventSeq: delivery.eventSeq };
      return waitBehindEarlier(deps, ctx, job, subject, blockedUntil, now);
    }
    const mode = await modeOf(deps.database, job.organisationId);
    const body = JSON.stringify(toEvent(event, mode));
    const result = await sendSigned(deps, endpoint, event.id, body, signal);
    const at = deps.clock.now();
    const final = job.attempt >= job.maxAttempts;
    const nextAttemptAt = result.ok || final ? null : new Date(at.getTime() + retryDelayMs(job.attempt));
    deps.metrics?.webhookAttempts.inc({
      outcome: result.ok ? 'succeeded' : final ? 'failed' : 'retry',
      status_class: statusClass(result.responseStatus),
      mode,
    });
    deps.metrics?.webhookDuration.observe(result.durationMs / 1000);
    const recorded: RecordedAttempt = {
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      subjectId: delivery.subjectId,
      eventSeq: delivery.eventSeq,
      outcome: {
        at,
        status: result.ok ? 'succeeded' : final ? 'failed' : 'pending',
        nextAttemptAt,
        responseStatus: result.responseStatus,
        responseBody: result.responseBody,
        durationMs: result.durationMs,
        error: result.error,
        request: { url: result.request.url, headers: result.request.headers },
      },
    };
    if (result.ok) {
      const settled = await recordSuccesses(job.organisationId, {
        attempt: recorded,
        job: {
          id: job.id,
          leaseToken: job.leaseToken,
          status: 'done',
          runAt: null,
          lastError: null,
          finishedAt: at,
        },
      });
      if (settled instanceof Error) throw settled;
      return { settled };
    }
    await inTenant(deps.database, ctx, (tx) =>
      recordFailure(tx, ctx, recorded, { final, error: result.error }),
    );
    const message = `the endpoint ${result.error ?? 'failed'}`;
    if (final) throw new PermanentJobError(message);
    throw new RetryLaterError(message, nextAttemptAt!);
  };
}

/** E-mails the organisation's administrators that a webhook was disabled, and how to turn it back on. */
export function webhookDisabledNoticeHandler(deps: {
  database: Database;
  clock: Clock;
  mailer: Mailer;
  baseUrl: string;
}): JobHandler<{ webhookId: string }> {
  return async (job) => {
    const ctx = systemContext(job.organisationId, deps.clock.now(), job.kind);
    const found = await inTenant(deps.database, ctx, async (tx) => ({
      endpoint: await webhookRepository(tx, ctx).find(job.payload.webhookId),
      to: await administratorEmails(tx, ctx),
    }));
    if (!found.endpoint) return { cancelled: 'the webhook no longer exists' };
    if (found.endpoint.enabled) return { cancelled: 'the webhook was enabled again' };
    if (found.to.length === 0) return { cancelled: 'the organisation has no active administrator' };
    const { endpoint } = found;
    const subject = 'A webhook was disabled after failing for 3 days';
    const text = [
      `Deliveries to ${endpoint.url} have failed for 3 days, so the webhook was disabled and no more events are sent to it.`,
      `Reason: ${endpoint.disabledReason ?? 'unknown'}`,
      '',
      'Once the endpoint works again, turn the webhook back on and send what it missed:',
      `  PATCH ${deps.baseUrl}/api/v1/webhooks/${endpoint.id}  {"enabled": true}`,
      `  GET ${deps.baseUrl}/api/v1/webhooks/${endpoint.id}/deliveries?status=cancelled (then redeliver each)`,
    ].join('\n');
    const html = textParagraphs(text);
    await sendOnce(deps, job, async () => {
      for (const to of found.to)
        await deps.mailer.send({ key: messageKey(job, to), to, subject, text, html });
    });
    return undefined;
  };
}
