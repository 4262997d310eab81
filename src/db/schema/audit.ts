import { bigint, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations } from './tenancy';

/**
 * Who changed what, when (an audit trail): written in the same transaction as the change, never
 * updated. The actor is a user (through a browser session, an API key or an OAuth client), a contact
 * or the system (a background job, named by `actor_label`); the summary names the changed fields,
 * never a secret.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').notNull(),
    /** Insertion order (events of one moment are listed in the order they were written). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    actorType: text('actor_type', {
      enum: ['user', 'api_key', 'oauth_client', 'contact', 'system'],
    }).notNull(),
    /** The acting user (session, API key or OAuth token), if any. */
    actorUserId: uuid('actor_user_id'),
    /** The API key's or OAuth client's id, if the change came through one. */
    actorCredentialId: text('actor_credential_id'),
    /** The system's part that acted ("directory sync"), or null. */
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
    requestId: text('request_id'),
    /** The client's address (the request's), when the change came through a request. */
    address: text('address'),
  },
  (t) => [
    primaryKey({ name: 'audit_events_pkey', columns: [t.organisationId, t.id] }),
    index('audit_events_org_at_seq_idx').on(t.organisationId, t.at, t.seq),
    index('audit_events_org_target_idx').on(t.organisationId, t.targetType, t.targetId, t.at),
    index('audit_events_org_actor_idx').on(t.organisationId, t.actorUserId, t.at),
    index('audit_events_org_request_idx').on(t.organisationId, t.requestId),
    // Records by age, for the retention sweep.
    index('audit_events_at_idx').on(t.at),
  ],
);
