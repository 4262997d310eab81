import { auditRepository } from '../../platform/audit/audit.repository';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { type EventFanOut, fanOutEventsTo } from '../../platform/events/fan-out';
import type { JobSignal } from '../../platform/jobs/job';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { isId, newId } from '../../platform/kernel/ids';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import {
  keysetOf,
  keysetPage,
  rowKey,
  SYNC_TOTAL_CAP,
  type WalkQuery,
  walking,
} from '../../platform/lists/cursor';
import {
  destinationProblem,
  type SafeHttpClient,
  type SafeHttpPolicy,
} from '../../platform/outbound/safe-http';
import { toEvent } from '../events';
import { type Mode, modeOf, modeOfCurrent } from '../organisations';
import { type DeliveryRow, deliveryRepository, type EventRow } from './deliveries.repository';
import { webhookFanOut } from './fan-out.repository';
import { webhookDeliveryJob } from './webhooks.delivery';
import { type EndpointRow, webhookRepository } from './webhooks.repository';
import type {
  CreateWebhook,
  ListDeliveriesQuery,
  UpdateWebhook,
  Webhook,
  WebhookDelivery,
} from './webhooks.schemas';
import { newWebhookSecret, pingMessage, sendSigned } from './webhooks.signatures';

export interface WebhookDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  http: SafeHttpClient;
  policy: SafeHttpPolicy;
  timeoutMs: number;
  jobs: JobSignal;
}

const notFound = () => new NotFound('Webhook not found');

function toWebhook(row: EndpointRow): Webhook {
  return {
    _id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: isoOrNull(row.failingSince),
    secrets: row.secrets.map((s) => ({ _id: s.id, createdAt: s.createdAt, expiresAt: s.expiresAt })),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toDelivery(row: DeliveryRow, event: EventRow | undefined, mode: Mode): WebhookDelivery {
  return {
    _id: row.id,
    webhookId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: isoOrNull(row.nextAttemptAt),
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    responseStatus: row.responseStatus,
    responseBody: row.responseBody,
    durationMs: row.durationMs,
    lastError: row.lastError,
    request: row.request && event ? { ...row.request, body: JSON.stringify(toEvent(event, mode)) } : null,
    history: row.history,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** Refuses (400 naming `url`) a destination that is not https, or resolves to an inner address. */
async function checkUrl(deps: WebhookDeps, url: string): Promise<void> {
  const problem = await destinationProblem(url, deps.policy);
  if (problem) throw BadRequest.field('url', problem);
}

const sealedSecret = (deps: WebhookDeps, endpointId: string, secret: string, now: Date) => ({
  id: newId(now.getTime()),
  sealed: deps.box.seal(secret, endpointId),
  createdAt: iso(now),
  expiresAt: null,
});

export async function createWebhook(deps: WebhookDeps, ctx: RequestContext, input: CreateWebhook) {
  await checkUrl(deps, input.url);
  const now = deps.clock.now();
  const id = newId(now.getTime());
  const secret = newWebhookSecret();
  const row = await inTenant(deps.database, ctx, (tx) =>
    webhookRepository(tx, ctx).insert({
      id,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      enabled: input.enabled,
      disabledReason: null,
      secrets: [sealedSecret(deps, id, secret, now)],
      failingSince: null,
      createdBy: ctx.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return { ...toWebhook(row), secret };
}

export async function listWebhooks(deps: WebhookDeps, ctx: RequestContext, query: WalkQuery = {}) {
  const { walk, answer } = walking('webhooks', query);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) => webhookRepository(tx, ctx).walk(walk));
  const { items, ...page } = answer(rows, total);
  return { webhooks: items.map(toWebhook), ...page };
}

export async function getWebhook(deps: WebhookDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => webhookRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  return toWebhook(row);
}

/** Changes a webhook; enabling one the service disabled clears its failing streak. */
export async function updateWebhook(
  deps: WebhookDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateWebhook,
) {
  if (input.url !== undefined) await checkUrl(deps, input.url);
  const now = deps.clock.now();
  const row = await inTenant(deps.database, ctx, async (tx) => {
    const repo = webhookRepository(tx, ctx);
    const current = await repo.find(id, { forUpdate: true });
    if (!current) throw notFound();
    const enabling = input.enabled === true && !current.enabled;
    if (input.enabled === false && current.enabled)
      await deliveryRepository(tx, ctx).cancelQueued(
        current.id,
        'the webhook was disabled: redeliver once it is enabled again',
        now,
      );
    return repo.update(current.id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(enabling ? { disabledReason: null, failingSince: null } : {}),
      updatedAt: now,
    });
  });
  return toWebhook(row!);
}

/** Deletes a webhook with its delivery log; its queued deliveries are dropped. */
export async function deleteWebhook(deps: WebhookDeps, ctx: RequestContext, id: string) {
  const removed = await inTenant(deps.database, ctx, (tx) => webhookRepository(tx, ctx).remove(id));
  if (!removed) throw notFound();
}

/**
 * Gives the webhook a new signing secret. The current one goes on signing beside it for
 * `overlapHours` (every delivery then carries both signatures), so receivers can switch without
 * missing a delivery; secrets past their overlap are dropped.
 */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  ctx: RequestContext,
  id: string,
  input: { overlapHours: number },
) {
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const row = await inTenant(deps.database, ctx, async (tx) => {
    const repo = webhookRepository(tx, ctx);
    const current = await repo.find(id, { forUpdate: true });
    if (!current) throw notFound();
    const until = new Date(now.getTime() + input.overlapHours * 3_600_000);
    // Secrets that go on signing are resealed with the current encryption key on the way (one whose key
    // is gone cannot sign anyway and is dropped).
    const kept = current.secrets
      .map((s) => ({ ...s, expiresAt: s.expiresAt ?? iso(until) }))
      .filter((s) => new Date(s.expiresAt) > now)
      .flatMap((s) => {
        if (!deps.box.isStale(s.sealed)) return [s];
        try {
          return [{ ...s, sealed: deps.box.seal(deps.box.open(s.sealed, current.id), current.id) }];
        } catch {
          return [];
        }
      });
    return repo.update(current.id, {
      secrets: [sealedSecret(deps, current.id, secret, now), ...kept],
      updatedAt: now,
    });
  });
  return { ...toWebhook(row!), secret };
}

/** Sends a signed `webhook.test` message now and answers what the endpoint said; nothing is stored. */
export async function testWebhook(deps: WebhookDeps, ctx: RequestContext, id: string) {
  const row = await inTenant(deps.database, ctx, (tx) => webhookRepository(tx, ctx).find(id));
  if (!row) throw notFound();
  const mode = await modeOf(deps.database, ctx.organisationId);
  const ping = pingMessage(row.id, ctx.organisationId, deps.clock.now(), mode === 'live');
  const result = await sendSigned(deps, row, ping.id, ping.body);
  // Nothing of the webhook changes, but something was sent in the organisation's name: recorded.
  await inTenant(deps.database, ctx, (tx) =>
    auditRepository(tx, ctx).record({
      action: 'webhook.tested',
      targetType: 'webhook',
      targetId: row.id,
      summary: { delivered: result.ok, responseStatus: result.responseStatus },
    }),
  );
  return {
    delivered: result.ok,
    responseStatus: result.responseStatus,
    responseBody: result.responseBody,
    durationMs: result.durationMs,
    error: result.error,
    request: result.request,
  };
}

export async function listDeliveries(
  deps: WebhookDeps,
  ctx: RequestContext,
  id: string,
  query: ListDeliveriesQuery,
) {
  const bound = { webhookId: id, status: query.status, eventType: query.eventType };
  const keyset = keysetOf('deliveries', query, bound);
  return inTenant(deps.database, ctx, async (tx) => {
    if (!(await webhookRepository(tx, ctx).find(id))) throw notFound();
    const repo = deliveryRepository(tx, ctx);
    const { rows, total } = await repo.deliveries(id, query, query, keyset);
    const keyOf = (r: DeliveryRow) => ({ ...rowKey(r), seq: r.eventSeq });
    const page = keysetPage('deliveries', rows, query.limit, keyset?.order ?? 'created', keyOf, {
      since: keyset?.since,
      askedWith: query.startingAfter,
      filters: bound,
    });
    const events = new Map((await repo.eventsByIds(page.items.map((r) => r.eventId))).map((e) => [e.id, e]));
    const mode = await modeOfCurrent(tx);
    return {
      deliveries: page.items.map((r) => toDelivery(r, events.get(r.eventId), mode)),
      total: keyset ? Math.min(total, SYNC_TOTAL_CAP) : total,
      totalIsEstimate: Boolean(keyset) && total > SYNC_TOTAL_CAP,
      hasMore: keyset ? page.hasMore : (query.page - 1) * query.limit + rows.length < total,
      nextCursor: page.nextCursor,
    };
  });
}

/**
 * Sends a delivery again, whatever became of it (succeeded, failed or cancelled, or left pending by a
 * job that ended without recording it): same event, same webhook-id, a fresh series of attempts. A
 * delivery still queued is a 409; so is one whose webhook is disabled (enable it first).
 */
export async function redeliver(deps: WebhookDeps, ctx: RequestContext, deliveryId: string) {
  const now = deps.clock.now();
  const result = await inTenant(deps.database, ctx, async (tx) => {
    const repo = deliveryRepository(tx, ctx);
    const current = isId(deliveryId) ? await repo.findDelivery(deliveryId, { forUpdate: true }) : undefined;
    if (!current) throw new NotFound('Delivery not found');
    if (current.status === 'pending' && (await repo.hasLiveJob(current.id)))
      throw Conflict.state(
        'The delivery is still pending: it is sent at nextAttemptAt',
        'status',
        current.status,
      );
    const endpoint = await webhookRepository(tx, ctx).find(current.endpointId);
    if (!endpoint?.enabled)
      throw Conflict.state(
        'The webhook is disabled: enable it first (PATCH enabled=true)',
        'enabled',
        'false',
      );
    const row = await repo.requeue(current.id, now);
    await jobRepository(tx, ctx).enqueue(
      [webhookDeliveryJob.job({ subjectId: current.id, payload: {}, runAt: now })],
      now,
    );
    const [event] = await repo.eventsByIds([current.eventId]);
    await auditRepository(tx, ctx).record({
      action: 'webhook_delivery.redelivered',
      targetType: 'webhook_delivery',
      targetId: current.id,
      summary: {
        webhookId: current.endpointId,
        eventType: current.eventType,
        status: { before: current.status, after: row!.status },
      },
    });
    return toDelivery(row!, event, await modeOfCurrent(tx));
  });
  deps.jobs.wake();
  return result;
}

/**
 * Makes every event this process records fan out to the organisation's webhooks, in the statement that
 * records it (fan-out.repository.ts), and to what `others` add (the advisers' notices). The composition
 * root calls it once.
 */
export function deliverEventsByWebhook(...others: EventFanOut[]): void {
  fanOutEventsTo((recorded) => [...webhookFanOut(recorded), ...others.flatMap((f) => f(recorded))]);
}
