import { sql } from 'drizzle-orm';
import { foreignKey, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { organisations, portfolios } from './tenancy';

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    portfolioId: uuid('portfolio_id').notNull(),
    thirdpartyId: text('thirdparty_id'),
    data: jsonb('data').$type<Record<string, string>>().notNull(),
    // Lower-cased, accent-folded first name, last name and e-mail; written by the application.
    searchText: text('search_text').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'customers_pkey', columns: [t.organisationId, t.id] }),
    foreignKey({
      name: 'customers_portfolio_fk',
      columns: [t.organisationId, t.portfolioId],
      foreignColumns: [portfolios.organisationId, portfolios.id],
    }),
    // DESC NULLS FIRST is what ORDER BY … DESC means; an index in another null order cannot serve it.
    index('customers_org_created_idx').on(
      t.organisationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // INCLUDE (change_txid), migration 0032: a sync's first page starts from it (platform/db/keyset.ts).
    index('customers_org_updated_idx').on(t.organisationId, t.updatedAt, t.id),
    // Syncs read by commit order (`updatedSince`, cursor.ts).
    index('customers_org_change_idx').on(t.organisationId, t.changeTxid, t.id),
    index('customers_org_portfolio_created_idx').on(
      t.organisationId,
      t.portfolioId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex('customers_org_thirdparty_key')
      .on(t.organisationId, t.thirdpartyId)
      .where(sql`${t.thirdpartyId} is not null`),
    // A campaign visitor is matched to a contact of the campaign's portfolio by e-mail.
    index('customers_org_portfolio_email_idx').on(
      t.organisationId,
      t.portfolioId,
      sql`lower(${t.data}->>'Email')`,
    ),
    index('customers_org_search_idx').using('gin', t.organisationId, sql`${t.searchText} gin_trgm_ops`),
  ],
);
