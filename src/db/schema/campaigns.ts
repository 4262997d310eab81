import { foreignKey, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { customers } from './customers';
import { sessionRequests } from './sessionrequests';
import { organisations } from './tenancy';

/**
 * One visitor of a campaign link: a browser that gave a name and e-mail. The browser holds an
 * unguessable token in an HttpOnly cookie; only its SHA-256 is stored. Each visitor has their own draft
 * and, once they submit, their own session: no visitor ever reads another's answers.
 */
export const campaignVisitors = pgTable(
  'campaign_visitors',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    sessionRequestId: uuid('session_request_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    // The contact created (or matched by e-mail) for the visitor, in the campaign's portfolio.
    customerId: uuid('customer_id').notNull(),
    draft: jsonb('draft').$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    submittedAt: ts('submitted_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'campaign_visitors_pkey', columns: [t.organisationId, t.id] }),
    uniqueIndex('campaign_visitors_token_key').on(t.organisationId, t.sessionRequestId, t.tokenHash),
    foreignKey({
      name: 'campaign_visitors_request_fk',
      columns: [t.organisationId, t.sessionRequestId],
      foreignColumns: [sessionRequests.organisationId, sessionRequests.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'campaign_visitors_customer_fk',
      columns: [t.organisationId, t.customerId],
      foreignColumns: [customers.organisationId, customers.id],
    }).onDelete('cascade'),
    index('campaign_visitors_org_customer_idx').on(t.organisationId, t.customerId),
  ],
);
