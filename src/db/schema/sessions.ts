import { sql } from 'drizzle-orm';
import {
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
import { campaignVisitors } from './campaigns';
import { changeTxid, ts } from './columns';
import { languages } from './enums';
import { sessionRequests } from './sessionrequests';
import { organisations } from './tenancy';

/** One response as the spec shows it, plus the raw value and its template. */
export interface SessionResponse {
  questionListId: string;
  questionId: string;
  questionTitle: string;
  response: string;
  value: unknown;
}
export interface SessionDocument {
  fileId: string;
  fileName: string;
  fileUrl: string;
}

/**
 * What a contact submitted for an action (spec 2.4): one per action, or, for a campaign, one per
 * visitor. Resubmitting after a reopen updates it; see versions.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    sessionRequestId: uuid('session_request_id').notNull(),
    customerId: uuid('customer_id'),
    // The campaign visitor who submitted it; null for an action sent to one contact.
    visitorId: uuid('visitor_id'),
    language: text('language', { enum: languages }).notNull(),
    answers: jsonb('answers').$type<Record<string, Record<string, unknown>>>().notNull(),
    responses: jsonb('responses').$type<SessionResponse[]>().notNull(),
    documents: jsonb('documents').$type<SessionDocument[]>().notNull(),
    // Its documents (the report) are being made by a job; the action completes when they are ready.
    documentsPending: boolean('documents_pending').notNull().default(false),
    version: integer('version').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'sessions_pkey', columns: [t.organisationId, t.id] }),
    // One session per action sent to a contact; one per visitor of a campaign.
    uniqueIndex('sessions_org_request_key')
      .on(t.organisationId, t.sessionRequestId)
      .where(sql`${t.visitorId} is null`),
    uniqueIndex('sessions_org_visitor_key')
      .on(t.organisationId, t.visitorId)
      .where(sql`${t.visitorId} is not null`),
    index('sessions_org_request_idx').on(t.organisationId, t.sessionRequestId),
    foreignKey({
      name: 'sessions_request_fk',
      columns: [t.organisationId, t.sessionRequestId],
      foreignColumns: [sessionRequests.organisationId, sessionRequests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'sessions_visitor_fk',
      columns: [t.organisationId, t.visitorId],
      foreignColumns: [campaignVisitors.organisationId, campaignVisitors.id],
    }).onDelete('cascade'),
    index('sessions_org_customer_idx').on(t.organisationId, t.customerId),
    // Lists page by keyset: newest first, or oldest change first for a sync.
    index('sessions_org_created_idx').on(t.organisationId, t.createdAt, t.id),
    // INCLUDE (change_txid), migration 0032: a sync's first page starts from it (platform/db/keyset.ts).
    index('sessions_org_updated_idx').on(t.organisationId, t.updatedAt, t.id),
    // Syncs read by commit order (`updatedSince`, cursor.ts).
    index('sessions_org_change_idx').on(t.organisationId, t.changeTxid, t.id),
  ],
);

/** Every submitted version of a session, never changed afterwards. */
export const sessionVersions = pgTable(
  'session_versions',
  {
    organisationId: uuid('organisation_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    version: integer('version').notNull(),
    language: text('language', { enum: languages }).notNull(),
    answers: jsonb('answers').$type<Record<string, Record<string, unknown>>>().notNull(),
    responses: jsonb('responses').$type<SessionResponse[]>().notNull(),
    documents: jsonb('documents').$type<SessionDocument[]>().notNull(),
    submittedAt: ts('submitted_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'session_versions_pkey', columns: [t.organisationId, t.sessionId, t.version] }),
    foreignKey({
      name: 'session_versions_session_fk',
      columns: [t.organisationId, t.sessionId],
      foreignColumns: [sessions.organisationId, sessions.id],
    }).onDelete('cascade'),
  ],
);
