import {
  sessionRequestStatuses,
  sessionRequestTypes,
  signatureLevels,
  signerStatuses,
  signingOrders,
} from '../../db/schema/enums';
import { idFilter, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, cursorQuery } from '../../platform/lists/cursor';
import { pageQuery } from '../../platform/lists/pagination';
import { Language } from '../questionlists';

const ref = z.string().max(200);
const Send = (channel: string) =>
  z
    .strictObject({ send: z.boolean() })
    .meta({ description: `send: true sends the ${channel} invitation (and reminders) by ${channel}` });

const days = z.number().int().min(1).max(365);
const ReminderSchedule = z
  .strictObject({
    reminder1Days: days.optional().meta({ description: 'Days after the invitation for the first reminder' }),
    reminder2Days: days.optional().meta({ description: 'Days after the invitation for the second reminder' }),
  })
  .refine(
    (r) =>
      r.reminder1Days === undefined || r.reminder2Days === undefined || r.reminder2Days > r.reminder1Days,
    { message: 'must come after reminder1Days', path: ['reminder2Days'] },
  )
  .meta({ id: 'ReminderSchedule' });

/**
 * What the document is, in the caller's words. The spec lists no values, so any short text is kept as
 * sent (trimmed); these are the kinds CRMs name most.
 */
/** What a document is, as a CRM calls it (spec 4.10: values not shown): any short text, kept as sent. */
const documentTypeExamples = ['contract', 'mandate', 'offer', 'form', 'other'];
export const documentType = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({
    description: `What the document is, in your own words: any text of 1–100 characters (trimmed), kept and shown as sent, e.g. ${documentTypeExamples.join(', ')}, pdf or Mandaat`,
    examples: documentTypeExamples,
  });

const expiresAt = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-12-31T23:59:00Z' })
  .meta({ description: 'After this moment the link stops working and the action becomes expired' });

export const CreateSessionRequest = z
  .strictObject({
    type: z.enum(sessionRequestTypes).meta({
      description:
        'qlist: questionnaire; multisigning: questionnaire whose report the contact then signs; quicksign: a PDF to sign, no questionnaire; campaign: a public link not bound to one contact',
    }),
    customerId: ref
      .optional()
      .meta({ description: 'The contact; required except for campaign (where it is refused)' }),
    customerIds: z.array(ref).min(1).max(10).optional().meta({
      description:
        'Signing actions: the contacts who sign, in signing order (1–10), instead of customerId. The first answers a multisigning questionnaire and signs on the action’s url; each other signer has a link of their own (signers[].url)',
    }),
    signingOrder: z.enum(signingOrders).optional().meta({
      description:
        'Signing actions with several signers: `parallel` (default: all may sign at once) or `sequential` (each is invited, and may sign, when the one before has signed)',
    }),
    portfolioId: ref.optional().meta({
      description:
        'campaign only: the portfolio where the contacts of its visitors are created or matched by e-mail; defaults to the default portfolio',
    }),
    questionListIds: z.array(ref).max(20).optional().meta({
      description: 'Active templates; required for qlist, multisigning and campaign; refused for quicksign',
    }),
    document: z
      .strictObject({
        fileId: ref.min(1).meta({ description: 'Reference of the uploaded document' }),
        title: z.string().trim().min(1).max(200).meta({ description: 'Title shown to the signer' }),
        type: documentType.optional(),
      })
      .optional()
      .meta({ description: 'quicksign only: the document to sign' }),
    signatureLevel: z.enum(signatureLevels).optional().meta({
      description:
        'quicksign and multisigning: `simple` (default: one-time code, drawn or typed signature, sealed document) or `qualified` (a qualified trust service; refused with 400 unless one is configured). See docs/signing.md',
    }),
    notificationEmail: Send('e-mail').optional(),
    notificationSms: Send('SMS').optional(),
    reminderSchedule: ReminderSchedule.optional(),
    language: Language.optional().meta({
      description:
        'Language of the invitation and pages; defaults to nl, or the first language all templates support',
    }),
    message: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .meta({ description: 'Personal note in the invitation' }),
    expiresAt: expiresAt.optional(),
  })
  .meta({ id: 'CreateSessionRequest' });

export const ReopenSessionRequest = z
  .strictObject({
    notificationEmail: Send('e-mail').optional(),
    notificationSms: Send('SMS').optional(),
    reminderSchedule: ReminderSchedule.optional(),
    expiresAt: expiresAt.optional(),
  })
  .meta({
    id: 'ReopenSessionRequest',
    description:
      'Optional. Nothing is sent unless asked; a new expiresAt is needed when the old one has passed.',
  });

export const Notification = z
  .object({
    channel: z.enum(['email', 'sms']),
    purpose: z.enum(['invitation', 'reminder1', 'reminder2', 'reopened']),
    signerId: z.string().nullable().meta({
      description: 'Signing actions: the signer it goes to (see signers); null: the action’s contact',
    }),
    status: z.enum(['pending', 'sending', 'sent', 'failed', 'cancelled']),
    attempts: z.number().int(),
    sends: z.number().int().meta({
      description:
        'Attempts whose message may have left: counted before it is sent, taken back when the relay or provider refused it. More than 1 means it was sent again, on purpose, after an attempt whose outcome was never learnt (the process or database was lost in between, perhaps before the message left); every copy carries the same Message-ID (e-mail) or Idempotency-Key (SMS), so relays and providers that de-duplicate deliver it once',
    }),
    lastError: z.string().nullable(),
    scheduledFor: timestamp.meta({ description: 'When the next attempt is due (or was made)' }),
    sentAt: timestamp.nullable(),
  })
  .meta({ id: 'Notification' });

const StatusChange = z
  .object({
    from: z.enum(sessionRequestStatuses).nullable(),
    to: z.enum(sessionRequestStatuses),
    at: timestamp,
    actor: z.enum(['user', 'contact', 'system']),
    userId: z.string().nullable(),
  })
  .meta({ id: 'StatusChange' });

export const Signer = z
  .object({
    _id: z.string(),
    customerId: z.string(),
    position: z.number().int().meta({ description: 'Place in the signing order, from 0' }),
    status: z.enum(signerStatuses),
    url: z.string().meta({ description: 'This signer’s own link (the first signer’s is the action’s url)' }),
    openedAt: timestamp.nullable(),
    codeSentAt: timestamp.nullable().meta({ description: 'When the last one-time code was sent' }),
    codeChannel: z.enum(['email', 'sms']).nullable(),
    signedAt: timestamp.nullable(),
    declinedAt: timestamp.nullable(),
    declineReason: z.string().nullable(),
  })
  .meta({ id: 'Signer' });

export const SessionRequest = z
  .object({
    _id: z.string(),
    code: z.string(),
    url: z.string().meta({ description: '{base_url}/action/<code>' }),
    type: z.enum(sessionRequestTypes),
    status: z.enum(sessionRequestStatuses),
    customerId: z.string().nullable(),
    portfolioId: z
      .string()
      .nullable()
      .meta({ description: 'campaign: the portfolio of its visitors’ contacts (null: the default one)' }),
    questionListIds: z.array(z.string()),
    document: z
      .object({
        fileId: z.string(),
        title: z.string(),
        type: z.string().nullable().meta({ description: 'What the document is, as sent; null if not sent' }),
      })
      .nullable(),
    signatureLevel: z
      .enum(signatureLevels)
      .nullable()
      .meta({ description: 'Signing actions: the level of signature; null for other types' }),
    signingOrder: z.enum(signingOrders).nullable(),
    signers: z.array(Signer).meta({
      description: 'Signing actions: who signs, in order, and where each stands; empty for other types',
    }),
    language: Language,
    message: z.string().nullable(),
    expiresAt: timestamp.nullable(),
    notificationEmail: z.object({ send: z.boolean() }),
    notificationSms: z.object({ send: z.boolean() }),
    reminderSchedule: z.object({
      reminder1Days: z.number().nullable(),
      reminder2Days: z.number().nullable(),
    }),
    createdBy: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    sentAt: timestamp.nullable(),
    openedAt: timestamp.nullable(),
    completedAt: timestamp.nullable(),
    closedAt: timestamp.nullable().meta({ description: 'When it was deactivated, expired or declined' }),
  })
  .meta({ id: 'SessionRequest' });

export const SessionRequestDetail = SessionRequest.extend({
  notifications: z.array(Notification),
  history: z.array(StatusChange),
}).meta({ id: 'SessionRequestDetail' });

export const SessionRequestList = z
  .object({ sessionRequests: z.array(SessionRequest), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'SessionRequestList' });

export const ListSessionRequestsQuery = z.object({
  status: z.enum(sessionRequestStatuses).optional(),
  customerId: idFilter('Only actions of this contact').optional(),
  type: z.enum(sessionRequestTypes).optional(),
  ...cursorQuery,
  search: z.string().max(200).optional().meta({
    description:
      'Words that must all be in the contact’s name or e-mail (case- and accent-insensitive), or all in the document’s title',
  }),
  ...pageQuery,
});

export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;
export type ReopenSessionRequest = z.infer<typeof ReopenSessionRequest>;
export type SessionRequest = z.infer<typeof SessionRequest>;
export type SessionRequestDetail = z.infer<typeof SessionRequestDetail>;
export type Notification = z.infer<typeof Notification>;
export type Signer = z.infer<typeof Signer>;
export type ListSessionRequestsQuery = z.infer<typeof ListSessionRequestsQuery>;
