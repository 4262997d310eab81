import { bigint, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations } from './tenancy';

/**
 * Stored files (uploaded documents, generated reports). The bytes live in the file storage under
 * `storage_key`, which is made from ids only; `file_name` is what the file is called for people.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'files_pkey', columns: [t.organisationId, t.id] }),
    index('files_org_created_idx').on(t.organisationId, t.createdAt),
  ],
);
