import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts, xid8 } from './columns';
import { organisations } from './tenancy';

/**
 * Domain events (docs/webhooks.md): written in the same transaction as the change they describe.
 * `txid` and `seq` give the order in which readers see them: GET /events lists only events of
 * transactions older than every transaction still running, in (txid, seq) order, so a cursor never
 * skips an event that commits late. The statement that records events also fans them out to the
 * organisation's webhook endpoints (platform/events/events.repository.ts with the webhooks module's
 * fan-out; a trigger until migration 0044).
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`),
    type: text('type').notNull(),
    // The record the event is about (an action, a contact, a file): deliveries keep its events' order.
    subjectId: uuid('subject_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    // The id leads: an event is found by id whatever the planner thinks of its organisation's share
    // (migration 0049). Pages read the organisation's events in order through the next index.
    primaryKey({ name: 'events_pkey', columns: [t.id, t.organisationId] }),
    index('events_org_order_idx').on(t.organisationId, t.txid, t.seq),
    index('events_org_type_order_idx').on(t.organisationId, t.type, t.txid, t.seq),
    // Events by age, for the retention sweep.
    index('events_created_idx').on(t.createdAt),
  ],
);
