// The closed sets of values columns take: plain constants (no tables), which API schemas build on too.

export const sessionRequestTypes = ['qlist', 'multisigning', 'quicksign', 'campaign'] as const;
export const sessionRequestStatuses = [
  'created',
  'sent',
  'opened',
  'completed',
  'reopened',
  'deactivated',
  'expired',
  'declined',
] as const;
export type SessionRequestStatus = (typeof sessionRequestStatuses)[number];
export const languages = ['nl', 'fr', 'en'] as const;
/** What a staff user hears of the actions they send: an e-mail per event, a daily digest, or nothing. */
export const notifyChoices = ['each', 'digest', 'none'] as const;
export type NotifyChoice = (typeof notifyChoices)[number];
export type Language = (typeof languages)[number];
export const jobStatuses = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof jobStatuses)[number];
export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
export const signatureLevels = ['simple', 'qualified'] as const;
export const signingOrders = ['parallel', 'sequential'] as const;
export const signerStatuses = ['pending', 'signed', 'declined'] as const;
