import { idFilter, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';

export const TestMessage = z
  .object({
    _id: z.string(),
    channel: z.enum(['email', 'sms']),
    to: z.string().meta({ description: 'The e-mail address or phone number it was for' }),
    sender: z
      .string()
      .nullable()
      .meta({ description: 'E-mail: the From name; SMS: the sender id (null: the service’s own)' }),
    subject: z.string().nullable().meta({ description: 'E-mail only' }),
    text: z.string().meta({ description: 'The plain text (the e-mail’s text part, or the SMS)' }),
    html: z.string().nullable().meta({ description: 'E-mail only: its HTML part' }),
    links: z.array(z.string()).meta({
      description: 'The addresses in the text, in order: the action link of an invitation or reminder',
    }),
    code: z
      .string()
      .nullable()
      .meta({ description: 'The one-time code of a code message (`kind` signing-code), else null' }),
    kind: z.string().meta({
      description:
        'What sent it: notification (invitation, reminder, reopening), signing-code, signed-copy, adviser-notice, …',
    }),
    subjectId: z.string().nullable().meta({
      description: 'What it is about: the action for invitations and reminders, the signer for codes',
    }),
    attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
    createdAt: timestamp,
  })
  .meta({ id: 'TestMessage' });

export const TestMessageList = z
  .object({
    messages: z.array(TestMessage),
    hasMore: z.boolean().meta({ description: 'More (older) messages follow this page' }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `startingAfter` for the next (older) page' }),
  })
  .meta({ id: 'TestMessageList' });

export const ListTestMessagesQuery = z.object({
  to: z.string().trim().min(1).max(320).optional().meta({
    description: 'Only messages to this address or number (e-mail addresses compared without case)',
  }),
  channel: z.enum(['email', 'sms']).optional(),
  subjectId: idFilter('Only messages about this action (or signer)').optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: 'Newest first, this many a page' }),
  startingAfter: z
    .string()
    .max(300)
    .optional()
    .meta({ description: 'The `nextCursor` of the previous answer: the page after it' }),
});

export const TestMessageParams = z.object({ messageId: z.string().max(100) });

export type TestMessage = z.infer<typeof TestMessage>;
export type ListTestMessagesQuery = z.infer<typeof ListTestMessagesQuery>;

export const FastForward = z
  .strictObject({
    to: z.enum(['next-reminder', 'expiry']).meta({
      description:
        'next-reminder: the earliest reminder still to come (every channel) is due now; expiry: the action’s expiresAt becomes now and it expires',
    }),
  })
  .meta({ id: 'FastForward' });

export const SessionRequestParams = z.object({ actionId: z.string().max(100) });

export const WipedTestData = z
  .object({
    deleted: z.record(z.string(), z.number().int()).meta({
      description: 'How many went of each: customers, session_requests, sessions, files, audit_events',
    }),
  })
  .meta({ id: 'WipedTestData' });
