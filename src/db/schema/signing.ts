import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/**
 * The service's generated seal key, when no SIGNING_CERT_P12 is configured: made on first start and
 * kept here, its PKCS#12 bundle and passphrase sealed with ENCRYPTION_KEYS. Not a tenant table: one
 * seal for the service.
 */
export const sealKeys = pgTable('seal_keys', {
  id: text('id').primaryKey(),
  sealedP12: text('sealed_p12').notNull(),
  sealedPassphrase: text('sealed_passphrase').notNull(),
  subject: text('subject').notNull(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: ts('created_at').notNull(),
});
