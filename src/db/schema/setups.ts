import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations } from './tenancy';

/**
 * What a CRM sends before an adviser opens a deep link (spec 4.10, 4.11): a quick-signing setup (a
 * contact and a document) or an action setup (contacts). Single-use, expiring, of one organisation and
 * the user whose credential made it.
 */
export const setups = pgTable(
  'setups',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['quicksign', 'action'] }).notNull(),
    // The body as sent (checked), to pre-fill the wizard.
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    // The actions the wizard made from it.
    sessionRequestIds: uuid('session_request_ids').array().notNull().default(sql`'{}'::uuid[]`),
  },
  (t) => [
    primaryKey({ name: 'setups_pkey', columns: [t.organisationId, t.id] }),
    index('setups_org_created_idx').on(t.organisationId, t.createdAt),
  ],
);
