import { sql } from 'drizzle-orm';
import { foreignKey, index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations, users } from './tenancy';

/**
 * Partner applications registered by an organisation's administrator (OAuth 2.0 clients). The client
 * secret is stored as SHA-256 only (it is 190 bits of randomness, like an API key); a public client has
 * none and must use PKCE. `service_user_id` is the user whose permissions the client acts within for
 * the client-credentials grant.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: uuid('id').primaryKey(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['confidential', 'public'] }).notNull(),
    secretHash: text('secret_hash'),
    secretRotatedAt: ts('secret_rotated_at'),
    grants: text('grants').array().notNull(),
    scopes: text('scopes').array().notNull(),
    redirectUris: text('redirect_uris').array().notNull().default(sql`'{}'::text[]`),
    serviceUserId: uuid('service_user_id'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    disabledAt: ts('disabled_at'),
  },
  (t) => [
    unique('oauth_clients_org_id_key').on(t.organisationId, t.id),
    uniqueIndex('oauth_clients_client_id_key').on(t.clientId),
    index('oauth_clients_org_created_idx').on(t.organisationId, t.createdAt),
    foreignKey({
      name: 'oauth_clients_service_user_fk',
      columns: [t.organisationId, t.serviceUserId],
      foreignColumns: [users.organisationId, users.id],
    }).onDelete('restrict'),
  ],
);
