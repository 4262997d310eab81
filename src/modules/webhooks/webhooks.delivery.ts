import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import type { Clock } from '../../platform/clock';
import { coalescer } from '../../platform/coalesce';
import { systemContext } from '../../platform/context';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { batchInTenant, inTenant } from '../../platform/db/tenant';
import { newId } from '../../platform/ids';
import { type JobHandler, PermanentJobError, RetryLaterError } from '../../platform/jobs/job';
import { defineJob } from '../../platform/jobs/job-type';
import { jobRepository, type SettleItem } from '../../platform/jobs/jobs.repository';
import { messageKey, sendOnce } from '../../platform/jobs/sending';
import type { Mailer } from '../../platform/mail';
import { type Metrics, statusClass } from '../../platform/metrics';
import type { SafeHttpClient } from '../../platform/safe-http';
import { escapeHtml } from '../../platform/web/html';
import { z } from '../../platform/zod';
import { toEvent } from '../events';
import { administratorEmails } from '../organisations';
import {
  type DeliveryToSend,
  deliveryStatements,
  type EndpointRow,
  type RecordedAttempt,
  toDeliveryToSend,
  webhookRepository,
} from './webhooks.repository';

/**
 * Delays before attempts 2–8: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 18 h — a day and a half in all
 * (35.6 h), each ±10 % so retries do not come in waves.
 */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 64_800_000];
/** An endpoint that fails without a single success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
/** The most of an endpoint's answer that is read and kept. */
export const RESPONSE_BODY_LIMIT = 4096;

export const retryDelayMs = (attempt: number, random: () => number = Math.random): number => {
  const base = RETRY_SCHEDULE_MS[Math.min(attempt, RETRY_SCHEDULE_MS.length) - 1] ?? RETRY_SCHEDULE_MS[0]!;
  return Math.round(base * (0.9 + 0.2 * random()));
};

/**
 * One delivery of one event to one endpoint (its subject is the delivery's id). Queued by the
 * database when the event is written (actiondesk_fan_out_event uses this kind and maxAttempts).
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

/** A new signing secret: whsec_ and 32 random bytes in base64 (Standard Webhooks' format). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The secrets that sign now: the current one and replaced ones still in their overlap. A secret that
 * does not open (its encryption key is no longer configured) is left out and named in `problems`.
 */
export function signingSecrets(
  deps: { box: SecretBox },
  endpoint: Pick<EndpointRow, 'id' | 'secrets'>,
  now: Date,
) {
  const secrets: string[] = [];
  const problems: string[] = [];
  for (const s of endpoint.secrets) {
    if (s.expiresAt !== null && new Date(s.expiresAt) <= now) continue;
    try {
      secrets.push(deps.box.open(s.sealed, endpoint.id));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { secrets, problems };
}

/** The Standard Webhooks headers for one message: one v1 signature per secret, space-separated. */
export function signedHeaders(
  secrets: string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Signer(s).sign(messageId, at, body)).join(' '),
  };
}

export interface SendResult {
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  request: { url: string; headers: Record<string, string>; body: string };
}

/** Signs and POSTs one message; never throws for what the endpoint does (that is the result). */
export async function sendSigned(
  deps: Pick<DeliveryDeps, 'box' | 'http' | 'timeoutMs' | 'clock'>,
  endpoint: Pick<EndpointRow, 'id' | 'url' | 'secrets'>,
  messageId: string,
  body: string,
  signal?: AbortSignal,
): Promise<SendResult> {
  const now = deps.clock.now();
  const { secrets, problems } = signingSecrets(deps, endpoint, now);
  if (secrets.length === 0) {
    return {
      ok: false,
      responseStatus: null,
      responseBody: null,
      durationMs: 0,
      error: `not sent: no signing secret opens (${problems.join('; ')}); rotate the webhook's secret`,
      request: { url: endpoint.url, headers: {}, body },
    };
  }
  const headers = signedHeaders(secrets, messageId, now, body);
  const request = { url: endpoint.url, headers, body };
  const started = performance.now();
  try {
    const res = await deps.http.post(endpoint.url, {
      headers,
      body,
      timeoutMs: deps.timeoutMs,
      maxBodyBytes: RESPONSE_BODY_LIMIT,
      signal,
    });
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
        ? `answered ${res.status} (a redirect${res.location ? ` to ${res.location.slice(0, 200)}` : ''}, not followed: register the final address)`
        : `answered ${res.status}`;
    return {
      ok,
      responseStatus: res.status,
      responseBody: res.body,
      durationMs: res.durationMs,
      error,
      request,
    };
  } catch (err) {
    return {
      ok: false,
      responseStatus: null,
      responseBody: null,
      durationMs: Math.round(performance.now() - started),
      error: (err as Error).message.slice(0, 500),
      request,
    };
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
  const ctxOf = (organisationId: string) =>
    systemContext(organisationId, deps.clock.now(), 'webhook delivery');
  const load = coalescer<string, DeliveryToSend | undefined>(async (organisationId, ids) => {
    const ctx = ctxOf(organisationId);
    const [rows = []] = await batchInTenant(deps.database, ctx, [deliveryStatements(ctx).load(ids)]);
    const byId = new Map(rows.map((r) => [r.id as string, toDeliveryToSend(r)]));
    return ids.map((id) => byId.get(id));
  });
  // Successes are recorded with their jobs' outcomes, in one transaction for all found together. When
  // that transaction fails, each is tried on its own, so one bad row does not fail the others.
  type Success = { attempt: RecordedAttempt; job: SettleItem };
  const recordTogether = async (organisationId: string, items: Success[]): Promise<boolean[]> => {
    const ctx = ctxOf(organisationId);
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
        jobRepository(deps.database.db, ctx).settleStatement(items.map((i) => i.job)),
      ],
      { writes: true },
    );
    const settled = new Set((results.at(-1) ?? []).map((r) => r.id as string));
    return items.map((i) => settled.has(i.job.id));
  };
  const recordSuccesses = coalescer<Success, boolean | Error>(async (organisationId, items) => {
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

  return async (job, signal) => {
    const ctx = ctxOf(job.organisationId);
    const found = await load(job.organisationId, job.subjectId ?? '');
    if (!found) return { cancelled: 'the delivery no longer exists' };
    const { delivery, endpoint, event, blockedUntil } = found;
    if (delivery.status !== 'pending') return { cancelled: `the delivery is already ${delivery.status}` };
    const now = deps.clock.now();
    if (!endpoint.enabled) {
      await inTenant(deps.database, ctx, (tx) =>
        webhookRepository(tx, ctx).cancel(delivery.id, 'the webhook is disabled', now),
      );
      return { cancelled: 'the webhook is disabled' };
    }
    if (blockedUntil && delivery.subjectId) {
      // The earlier delivery wakes this one when it finishes; until then, look again at its next
      // attempt, and at least every minute.
      const later = Math.min(
        Math.max(blockedUntil.getTime() + 1000, now.getTime() + 5000),
        now.getTime() + 60_000,
      );
      const statement = deliveryStatements(ctx).deferBehind(
        { subjectId: delivery.subjectId, endpointId: endpoint.id, eventSeq: delivery.eventSeq },
        { id: job.id, leaseToken: job.leaseToken },
        new Date(later),
        now,
      );
      const [rows = []] = await batchInTenant(deps.database, ctx, [statement], { writes: true });
      return { settled: rows.length > 0 };
    }
    const body = JSON.stringify(toEvent(event));
    const result = await sendSigned(deps, endpoint, event.id, body, signal);
    const at = deps.clock.now();
    const final = job.attempt >= job.maxAttempts;
    const nextAttemptAt = result.ok || final ? null : new Date(at.getTime() + retryDelayMs(job.attempt));
    deps.metrics?.webhookAttempts.inc({
      outcome: result.ok ? 'succeeded' : final ? 'failed' : 'retry',
      status_class: statusClass(result.responseStatus),
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
    await inTenant(deps.database, ctx, async (tx) => {
      const statements = deliveryStatements(ctx);
      await tx.execute(statements.record([recorded]));
      if (final && recorded.subjectId) await tx.execute(statements.wakeNext([recorded], at));
      const repo = webhookRepository(tx, ctx);
      const failing = await repo.markFailing(endpoint.id, at);
      if (
        failing?.enabled &&
        failing.failingSince &&
        at.getTime() - failing.failingSince.getTime() >= DISABLE_AFTER_MS
      ) {
        await repo.update(endpoint.id, {
          enabled: false,
          disabledReason: `every delivery failed from ${failing.failingSince.toISOString()} to ${at.toISOString()} (last: ${result.error ?? 'no answer'})`,
          updatedAt: at,
        });
        await repo.cancelQueued(
          endpoint.id,
          'the webhook was disabled after failing for 3 days: redeliver once it is enabled again',
          at,
        );
        await jobRepository(tx, ctx).enqueue(
          [
            webhookDisabledNoticeJob.job({
              subjectId: endpoint.id,
              payload: { webhookId: endpoint.id },
              runAt: at,
            }),
          ],
          at,
        );
      }
    });
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
    const html = text
      .split('\n')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('');
    await sendOnce(deps, job, async () => {
      for (const to of found.to)
        await deps.mailer.send({ key: messageKey(job, to), to, subject, text, html });
    });
    return undefined;
  };
}

/** A ping's body: not a stored event, so it is never listed by GET /events. */
export function pingMessage(webhookId: string, organisationId: string, at: Date) {
  const id = newId(at.getTime());
  return {
    id,
    body: JSON.stringify({
      id,
      type: 'webhook.test',
      createdAt: at.toISOString(),
      organisationId,
      data: { webhookId, message: 'This is a test delivery from ActionDesk.' },
    }),
  };
}
