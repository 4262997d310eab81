import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { organisations } from './tenancy';

/** A file that went with a captured e-mail, described (its bytes are not kept). */
export interface CapturedAttachment {
  filename: string;
  contentType: string;
  size: number;
}

/**
 * The test inbox (issue 31): every e-mail and SMS a test organisation's jobs would have sent, kept
 * instead of sent. Only test organisations have rows; the job ran as it would have (templates, codes,
 * retries), its message stopped at the door.
 */
export const testMessages = pgTable(
  'test_messages',
  {
    id: uuid('id').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    /** The job that would have sent it, and its kind (`notification`, `signing-code`, …). */
    jobId: uuid('job_id'),
    jobKind: text('job_kind'),
    /** What the job is about: an action for invitations and reminders, a signer for codes. */
    subjectId: uuid('subject_id'),
    to: text('to').notNull(),
    /** E-mail: the From's display name; SMS: the sender id. */
    sender: text('sender'),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    /** The addresses in the text, in order (the action link, a copy's link). */
    links: text('links').array().notNull(),
    /** The one-time code, for a code message. */
    code: text('code'),
    attachments: jsonb('attachments').$type<CapturedAttachment[]>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'test_messages_pkey', columns: [t.organisationId, t.id] }),
    index('test_messages_org_to_idx').on(t.organisationId, t.to, t.id),
  ],
);
