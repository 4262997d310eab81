import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, ts } from './columns';
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

/**
 * What the signing page and the wizard show of a PDF file, page by page (numbered from 1): the page's
 * size in points, its text, and its image drawn by poppler (`image_width` pixels wide; null until
 * drawn). Written by the `file-pages` job when an action with a document is created (so the first
 * signer never waits for the drawing) and on first view otherwise; shared by every instance. A cache of
 * what the file's bytes say: it goes with its file, and may be emptied at any time.
 */
export const filePages = pgTable(
  'file_pages',
  {
    organisationId: uuid('organisation_id').notNull(),
    fileId: uuid('file_id').notNull(),
    page: integer('page').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    text: text('text').notNull(),
    imageWidth: integer('image_width'),
    image: bytea('image'),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ name: 'file_pages_pkey', columns: [t.organisationId, t.fileId, t.page] }),
    foreignKey({
      name: 'file_pages_file_fk',
      columns: [t.organisationId, t.fileId],
      foreignColumns: [files.organisationId, files.id],
    }).onDelete('cascade'),
  ],
);
