import { sessionRequestStatuses, sessionRequestTypes, signerStatuses } from '../../db/schema/enums';
import { eventTypes } from '../../platform/events/event-types';
import { instantParam, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { Customer } from '../customers';
import { StoredFile } from '../files';

const id = z.string().meta({ description: 'Opaque identifier' });

const ActionRef = z
  .object({
    _id: id,
    code: z.string().meta({ description: 'The action’s public code' }),
    status: z
      .enum(sessionRequestStatuses)
      .meta({ description: 'The action’s status once the change committed' }),
    type: z.enum(sessionRequestTypes),
    url: z.string().meta({ description: 'The contact’s link' }),
  })
  .meta({ id: 'EventSessionRequest' });

const ContactRef = z
  .object({
    _id: id,
    thirdpartyId: z.string().nullable().meta({ description: 'The contact’s reference in your system' }),
  })
  .meta({ id: 'EventCustomerRef' });

const EventDocument = z
  .object({
    fileId: id,
    fileName: z.string(),
    url: z.string().meta({ description: 'Download URL (authenticate with your API key)' }),
  })
  .meta({ id: 'EventDocument' });

const SessionRequestEventData = z
  .object({
    sessionRequest: ActionRef,
    customer: ContactRef.nullable().meta({ description: 'The contact; null for a campaign' }),
    sessionId: z.string().nullable().meta({
      description: 'The submitted session (for a campaign visitor, that visitor’s), when there is one',
    }),
    documents: z.array(EventDocument).meta({ description: 'The session’s generated documents' }),
  })
  .meta({ id: 'SessionRequestEventData' });

const SignerRef = z
  .object({
    _id: id,
    customerId: id.meta({ description: 'The signing contact' }),
    position: z.number().int().meta({ description: 'Place in the signing order, from 0' }),
    status: z.enum(signerStatuses),
    signedAt: timestamp.nullable(),
    declinedAt: timestamp.nullable(),
    declineReason: z.string().nullable().meta({ description: 'The reason the signer gave for declining' }),
  })
  .meta({ id: 'EventSigner' });

const SignatureEventData = SessionRequestEventData.extend({
  signer: SignerRef.meta({ description: 'The signer this event is about' }),
}).meta({ id: 'SignatureEventData' });

const RemovedCustomerRef = z
  .object({ _id: id })
  .nullable()
  .meta({ description: 'The action’s contact; null for a campaign' });
const SessionRequestDeletedData = z
  .object({
    sessionRequest: z.object({
      _id: id,
      type: z.enum(sessionRequestTypes),
      status: z.enum(sessionRequestStatuses).meta({ description: 'Its status when it was removed' }),
    }),
    customer: RemovedCustomerRef,
  })
  .meta({ id: 'SessionRequestDeletedEventData' });
const SessionDeletedData = z
  .object({
    session: z.object({ _id: id, sessionRequestId: id }),
    customer: RemovedCustomerRef,
  })
  .meta({ id: 'SessionDeletedEventData' });

const CustomerEventData = z.object({ customer: Customer }).meta({ id: 'CustomerEventData' });
const CustomerDeletedData = z.object({ customer: ContactRef }).meta({ id: 'CustomerDeletedEventData' });
const FileEventData = z.object({ file: StoredFile }).meta({ id: 'FileEventData' });
const FileDeletedData = z
  .object({ file: z.object({ _id: id, fileName: z.string() }) })
  .meta({ id: 'FileDeletedEventData' });

type EventTypeName = (typeof eventTypes)[number];

/** What each event type says, for the catalogue (docs/webhooks.md) and the OpenAPI document. */
export const eventCatalogue: Record<EventTypeName, { summary: string; data: z.ZodType }> = {
  'sessionrequest.created': { summary: 'An action was created', data: SessionRequestEventData },
  'sessionrequest.sent': {
    summary: 'An action was created with an invitation to send (e-mail and/or SMS); it is queued',
    data: SessionRequestEventData,
  },
  'sessionrequest.opened': { summary: 'The contact opened the action’s link', data: SessionRequestEventData },
  'sessionrequest.completed': {
    summary: 'The contact submitted: the action is completed (data carries the session and its documents)',
    data: SessionRequestEventData,
  },
  'sessionrequest.reopened': {
    summary: 'A completed action was reopened for corrections',
    data: SessionRequestEventData,
  },
  'sessionrequest.deactivated': { summary: 'An open action was withdrawn', data: SessionRequestEventData },
  'sessionrequest.expired': { summary: 'An open action passed its expiry', data: SessionRequestEventData },
  'sessionrequest.declined': {
    summary:
      'A signer declined to sign: the signing action is closed (see signature.declined for the reason)',
    data: SessionRequestEventData,
  },
  'sessionrequest.deleted': {
    summary: 'An action was removed (with its contact, or with a file it held): a synced copy should go too',
    data: SessionRequestDeletedData,
  },
  'signature.signed': {
    summary:
      'A signer signed. When the last one has, the sealed document is made and sessionrequest.completed follows with it',
    data: SignatureEventData,
  },
  'signature.declined': {
    summary: 'A signer declined to sign, with their reason; sessionrequest.declined follows',
    data: SignatureEventData,
  },
  'session.submitted': {
    summary: 'A session was submitted (each campaign visitor’s too); comes before sessionrequest.completed',
    data: SessionRequestEventData,
  },
  'session.deleted': {
    summary:
      'A session was removed (with its contact, its action, or a file it listed): a synced copy should go too',
    data: SessionDeletedData,
  },
  'customer.created': {
    summary: 'A contact was created (also by a campaign visitor)',
    data: CustomerEventData,
  },
  'customer.updated': { summary: 'A contact was changed', data: CustomerEventData },
  'customer.deleted': { summary: 'A contact was deleted', data: CustomerDeletedData },
  'file.created': { summary: 'A file was stored (an upload, or a generated report)', data: FileEventData },
  'file.deleted': {
    summary: 'A file was deleted (also with a contact or action it belonged to)',
    data: FileDeletedData,
  },
};

const envelope = <T extends EventTypeName>(type: T, data: z.ZodType) =>
  z
    .object({
      id: id.meta({ description: 'Unique; the same in every delivery of the event (webhook-id)' }),
      type: z.literal(type),
      createdAt: timestamp,
      organisationId: id,
      livemode: z.boolean().meta({
        description: 'False for an event of test records (made with test credentials); see docs/test-mode.md',
      }),
      data,
    })
    .meta({ id: `Event_${type.replace('.', '_')}`, description: eventCatalogue[type].summary });

export const eventSchemas = eventTypes.map((type) => ({
  type,
  schema: envelope(type, eventCatalogue[type].data),
}));

export const Event = z
  .discriminatedUnion('type', eventSchemas.map((e) => e.schema) as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ id: 'Event', description: 'A domain event, as listed by GET /events and sent to webhooks' });
export type Event = z.infer<typeof Event>;

export const EventList = z
  .object({
    events: z.array(Event),
    nextCursor: z.string().nullable().meta({
      description:
        'Where this page ended: pass it as `cursor` to read what follows (also later, when new events have come). Null only when nothing was listed yet and no cursor was given',
    }),
    hasMore: z.boolean().meta({ description: 'Whether more events follow at once' }),
  })
  .meta({ id: 'EventList' });

export const ListEventsQuery = z.object({
  type: z
    .string()
    .max(2000)
    .optional()
    .meta({ description: `Only these types, comma-separated: ${eventTypes.join(', ')}` }),
  since: instantParam('Only events at or after this time').optional(),
  updatedSince: instantParam('The same as `since` (the name every list takes)').optional(),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'A nextCursor from an earlier answer: only events after it' }),
  startingAfter: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'The same as `cursor` (the name every list takes)' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .meta({ description: 'Events per page, 1–1000' }),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;
