/**
 * Every domain event the service writes (docs/webhooks.md has the catalogue with examples). A name is
 * `<subject>.<what happened>`; subscribers may name exact types or `*`.
 */
const sessionRequestEventTypes = [
  'sessionrequest.created',
  'sessionrequest.sent',
  'sessionrequest.opened',
  'sessionrequest.completed',
  'sessionrequest.reopened',
  'sessionrequest.deactivated',
  'sessionrequest.expired',
  'sessionrequest.declined',
] as const;

export const eventTypes = [
  ...sessionRequestEventTypes,
  'sessionrequest.deleted',
  'session.submitted',
  'session.deleted',
  'signature.signed',
  'signature.declined',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'file.created',
  'file.deleted',
] as const;

export type EventType = (typeof eventTypes)[number];

export const isEventType = (s: string): s is EventType => (eventTypes as readonly string[]).includes(s);
