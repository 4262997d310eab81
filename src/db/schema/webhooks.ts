import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { webhookDeliveryStatuses } from './enums';
import { events } from './events';
import { organisations } from './tenancy';

/** A signing secret as stored: sealed with the configured encryption key (platform/crypto/sealed.ts). */
export interface StoredWebhookSecret {
  id: string;
  sealed: string;
  createdAt: string;
  /** Set when a newer secret replaced it: it goes on signing until then (rotation overlap). */
  expiresAt: string | null;
}

/** One attempt as the delivery log shows it. */
export interface DeliveryAttempt {
  at: string;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** An organisation's webhook subscription: where to send which events, and its signing secrets. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    // Event types, or ['*'] for every event.
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull(),
    disabledReason: text('disabled_reason'),
    secrets: jsonb('secrets').$type<StoredWebhookSecret[]>().notNull(),
    // When deliveries to the endpoint started failing without a success since; null when healthy.
    failingSince: ts('failing_since'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'webhook_endpoints_pkey', columns: [t.organisationId, t.id] }),
    index('webhook_endpoints_org_created_idx').on(t.organisationId, t.createdAt, t.id),
  ],
);

/** One event to one endpoint: its attempts (each a job run), outcome and the last request sent. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    subjectId: uuid('subject_id'),
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastAttemptAt: ts('last_attempt_at'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    durationMs: integer('duration_ms'),
    lastError: text('last_error'),
    request: jsonb('request').$type<{ url: string; headers: Record<string, string> }>(),
    history: jsonb('history').$type<DeliveryAttempt[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    // The id leads: a delivery is found by id whatever the planner thinks of its organisation's
    // share (migration 0049).
    primaryKey({ name: 'webhook_deliveries_pkey', columns: [t.id, t.organisationId] }),
    foreignKey({
      name: 'webhook_deliveries_endpoint_fk',
      columns: [t.organisationId, t.endpointId],
      foreignColumns: [webhookEndpoints.organisationId, webhookEndpoints.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'webhook_deliveries_event_fk',
      columns: [t.organisationId, t.eventId],
      foreignColumns: [events.organisationId, events.id],
    }).onDelete('cascade'),
    index('webhook_deliveries_org_endpoint_idx').on(t.organisationId, t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_org_event_idx').on(t.organisationId, t.eventId),
    // Finished deliveries by their last change, for the retention sweep.
    index('webhook_deliveries_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
    // Syncs read by commit order (`updatedSince`, cursor.ts).
    index('webhook_deliveries_org_change_idx').on(t.organisationId, t.changeTxid, t.id),
    // Finds an earlier unfinished delivery of the same subject to the same endpoint (ordering).
    index('webhook_deliveries_pending_subject_idx')
      .on(t.organisationId, t.subjectId, t.endpointId, t.eventSeq)
      .where(sql`${t.status} = 'pending'`),
  ],
);
