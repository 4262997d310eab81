import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { changeTxid, ts } from './columns';
import { organisations } from './tenancy';

/** The questions of a template: sections of questions (see questionlists.schemas.ts for the shape). */
export type QuestionListContent = { sections: unknown[] };

export const questionLists = pgTable(
  'question_lists',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull(),
    supportedLanguages: text('supported_languages').array().notNull(),
    hasReportSpec: boolean('has_report_spec').notNull(),
    active: boolean('active').notNull(),
    // The current version; every change of the questions or languages adds a row to question_list_versions.
    version: integer('version').notNull(),
    content: jsonb('content').$type<QuestionListContent>().notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    changeTxid: changeTxid(),
  },
  (t) => [
    primaryKey({ name: 'question_lists_pkey', columns: [t.organisationId, t.id] }),
    unique('question_lists_org_slug_key').on(t.organisationId, t.slug),
    index('question_lists_org_active_idx').on(t.organisationId, t.name).where(sql`${t.active}`),
  ],
);

/**
 * Every version of a template's questions, never changed once written: an action keeps the version it
 * was sent with, so editing a template never changes what a contact is answering.
 */
export const questionListVersions = pgTable(
  'question_list_versions',
  {
    organisationId: uuid('organisation_id').notNull(),
    questionListId: uuid('question_list_id').notNull(),
    version: integer('version').notNull(),
    supportedLanguages: text('supported_languages').array().notNull(),
    content: jsonb('content').$type<QuestionListContent>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'question_list_versions_pkey',
      columns: [t.organisationId, t.questionListId, t.version],
    }),
    foreignKey({
      name: 'question_list_versions_list_fk',
      columns: [t.organisationId, t.questionListId],
      foreignColumns: [questionLists.organisationId, questionLists.id],
    }).onDelete('cascade'),
  ],
);
