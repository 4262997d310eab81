import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations } from './tenancy';

/**
 * The answers to POST requests sent with an `Idempotency-Key`, per organisation and credential: written
 * in the same transaction as the work, so a stored answer always means the work was done (and the
 * other way round). A retry with the same key and the same request gets the stored answer again.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** Who sent it: `key:<api key id>`, `oauth:<client id>:<user id>` or `user:<user id>`. */
    credential: text('credential').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the method, path and body (keys sorted): the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** Null only inside the request's own transaction, until its answer is stored. */
    status: integer('status'),
    /** The answer's JSON exactly as it was sent; null for an answer without a body. */
    body: text('body'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.organisationId, t.credential, t.key] }),
    index('idempotency_keys_org_expires_idx').on(t.organisationId, t.expiresAt),
  ],
);
