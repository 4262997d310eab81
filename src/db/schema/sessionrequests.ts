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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { customers } from './customers';
import {
  languages,
  sessionRequestStatuses,
  sessionRequestTypes,
  signatureLevels,
  signingOrders,
} from './enums';
import { organisations } from './tenancy';

export const sessionRequests = pgTable(
  'session_requests',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    // The public code of the link; unique over all organisations (the link carries no organisation).
    code: text('code').notNull(),
    type: text('type', { enum: sessionRequestTypes }).notNull(),
    status: text('status', { enum: sessionRequestStatuses }).notNull(),
    customerId: uuid('customer_id'),
    // A campaign's portfolio: where the contacts of its visitors are created (null: the default one).
    portfolioId: uuid('portfolio_id'),
    questionListIds: uuid('question_list_ids').array().notNull(),
    questionListVersions: integer('question_list_versions').array().notNull(),
    // `type`: what the document is, as the caller named it (free text; absent when not sent).
    document: jsonb('document').$type<{ fileId: string; title: string; type?: string }>(),
    // Signing actions (quicksign, multisigning): the level asked for and the order of the signers.
    signatureLevel: text('signature_level', { enum: signatureLevels }),
    signingOrder: text('signing_order', { enum: signingOrders }),
    language: text('language', { enum: languages }).notNull(),
    message: text('message'),
    expiresAt: ts('expires_at'),
    notifyEmail: boolean('notify_email').notNull(),
    notifySms: boolean('notify_sms').notNull(),
    reminder1Days: integer('reminder1_days'),
    reminder2Days: integer('reminder2_days'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    sentAt: ts('sent_at'),
    openedAt: ts('opened_at'),
    completedAt: ts('completed_at'),
    closedAt: ts('closed_at'),
    // The contact's answers so far (by template id, then question id): saved at every step, so they can
    // leave and come back; after a reopen they start from what they submitted.
    draft: jsonb('draft').$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'session_requests_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('session_requests_code_key').on(t.code, t.organisationId),
    foreignKey({
      name: 'session_requests_customer_fk',
      columns: [t.organisationId, t.customerId],
      foreignColumns: [customers.organisationId, customers.id],
    }).onDelete('cascade'),
    index('session_requests_org_created_idx').on(
      t.organisationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // INCLUDE (change_txid), migration 0032: a sync's first page starts from it (platform/db/keyset.ts).
    index('session_requests_org_updated_idx').on(t.organisationId, t.updatedAt, t.id),
    // Syncs read by commit order (`updatedSince`, cursor.ts).
    index('session_requests_org_change_idx').on(t.organisationId, t.changeTxid, t.id),
    index('session_requests_org_customer_idx').on(t.organisationId, t.customerId),
    index('session_requests_org_status_idx').on(t.organisationId, t.status),
  ],
);

/** Every status change of an action: who (a user, the contact, or the system), when, from, to. */
export const sessionRequestEvents = pgTable(
  'session_request_events',
  {
    id: uuid('id').notNull(),
    // Orders the history exactly, even for changes within the same millisecond.
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organisationId: uuid('organisation_id').notNull(),
    sessionRequestId: uuid('session_request_id').notNull(),
    fromStatus: text('from_status', { enum: sessionRequestStatuses }),
    toStatus: text('to_status', { enum: sessionRequestStatuses }).notNull(),
    actor: text('actor', { enum: ['user', 'contact', 'system'] }).notNull(),
    userId: uuid('user_id'),
    at: ts('at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'session_request_events_pkey', columns: [t.organisationId, t.id] }),
    foreignKey({
      name: 'session_request_events_request_fk',
      columns: [t.organisationId, t.sessionRequestId],
      foreignColumns: [sessionRequests.organisationId, sessionRequests.id],
    }).onDelete('cascade'),
    index('session_request_events_request_idx').on(t.organisationId, t.sessionRequestId, t.seq),
  ],
);
