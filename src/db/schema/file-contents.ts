import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { bytea, ts } from './columns';
import { organisations } from './tenancy';

/**
 * File bytes kept in the database (FILE_STORAGE=database, the default on a server database), so that
 * every instance reads what any instance wrote. A file is stored in parts of at most 1 MiB, numbered
 * from 0, written before its `files` row; parts whose file never got its row are pruned.
 */
export const fileContents = pgTable(
  'file_contents',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id').notNull(),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.fileId, t.part] })],
);
