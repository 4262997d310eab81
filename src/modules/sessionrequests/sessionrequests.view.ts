import { defineJob } from '../../platform/jobs/job-type';
import type { JobRecord, NewJob } from '../../platform/jobs/jobs.repository';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import type { SignerSummary } from './action-reads.repository';
import type { SessionRequestRow } from './sessionrequests.repository';
import { Notification, type SessionRequest, type SessionRequestDetail } from './sessionrequests.schemas';

/** E-mail outages of about an hour are ridden out: 8 attempts, 30 s doubling (defaultRetryDelayMs). */
const NOTIFICATION_ATTEMPTS = 8;

/** An invitation, reminder or reopening message to the action's contact, on one channel. */
export const notificationJob = defineJob({
  kind: 'notification',
  payload: z.strictObject({
    channel: Notification.shape.channel,
    purpose: Notification.shape.purpose,
    // A signing action's signer (their contact and own link); absent: the action's contact.
    signerId: z.string().optional(),
  }),
  maxAttempts: NOTIFICATION_ATTEMPTS,
  // Longer than the SMTP and SMS clients' own timeouts: those end a hung delivery first.
  timeoutMs: 90_000,
});

/** Records an action's expiry when its expiresAt comes. */
export const expiryJobType = defineJob({
  kind: 'session-request-expiry',
  payload: z.strictObject({}),
  maxAttempts: 20,
  timeoutMs: 30_000,
});

export const NOTIFICATION_JOB = notificationJob.kind;
export const EXPIRY_JOB = expiryJobType.kind;
/** Jobs that stop mattering once an action is completed, deactivated or expired. */
export const closingJobKinds = [NOTIFICATION_JOB, EXPIRY_JOB];

export interface Channels {
  email: boolean;
  sms: boolean;
}

/** The channels a request asks to notify on (`notificationEmail.send`, `notificationSms.send`). */
export function channelsOf(input: {
  notificationEmail?: { send: boolean };
  notificationSms?: { send: boolean };
}): Channels {
  return { email: input.notificationEmail?.send === true, sms: input.notificationSms?.send === true };
}
export type Purpose = Notification['purpose'];
export type NotificationPayload = z.output<typeof notificationJob.payload>;

const DAY_MS = 86_400_000;

/** The notification jobs for one send: the message now, then reminders that many days later, per channel. */
export function notificationJobs(
  subjectId: string,
  channels: Channels,
  purpose: Purpose,
  reminders: { reminder1Days?: number; reminder2Days?: number } | undefined,
  now: Date,
  signerId?: string,
): NewJob[] {
  const steps: { purpose: Purpose; at: Date }[] = [{ purpose, at: now }];
  if (reminders?.reminder1Days)
    steps.push({ purpose: 'reminder1', at: new Date(now.getTime() + reminders.reminder1Days * DAY_MS) });
  if (reminders?.reminder2Days)
    steps.push({ purpose: 'reminder2', at: new Date(now.getTime() + reminders.reminder2Days * DAY_MS) });
  const jobs: NewJob[] = [];
  for (const step of steps) {
    for (const channel of ['email', 'sms'] as const) {
      if (!channels[channel]) continue;
      jobs.push(
        notificationJob.job({
          subjectId,
          payload: { channel, purpose: step.purpose, ...(signerId ? { signerId } : {}) },
          runAt: step.at,
        }),
      );
    }
  }
  return jobs;
}

export function expiryJob(subjectId: string, at: Date): NewJob {
  return expiryJobType.job({ subjectId, payload: {}, runAt: at });
}

const notificationStatus: Record<JobRecord['status'], Notification['status']> = {
  pending: 'pending',
  running: 'sending',
  done: 'sent',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function notificationFromJob(job: JobRecord): Notification {
  const payload = notificationJob.read(job.payload);
  return {
    channel: payload.channel,
    purpose: payload.purpose,
    signerId: payload.signerId ?? null,
    status: notificationStatus[job.status],
    attempts: job.attempts,
    sends: job.sends,
    lastError: job.lastError,
    scheduledFor: iso(job.runAt),
    sentAt: job.status === 'done' && job.finishedAt ? iso(job.finishedAt) : null,
  };
}

/** A notification just queued (the create answer), without reading it back. */
export function pendingNotification(job: NewJob): Notification {
  const payload = notificationJob.read(job.payload);
  return {
    channel: payload.channel,
    purpose: payload.purpose,
    signerId: payload.signerId ?? null,
    status: 'pending',
    attempts: 0,
    sends: 0,
    lastError: null,
    scheduledFor: iso(job.runAt),
    sentAt: null,
  };
}

export function toSessionRequest(
  row: SessionRequestRow,
  signers: SignerSummary[],
  baseUrl: string,
): SessionRequest {
  return {
    _id: row.id,
    code: row.code,
    url: `${baseUrl}/action/${row.code}`,
    type: row.type,
    status: row.status,
    customerId: row.customerId,
    portfolioId: row.portfolioId,
    questionListIds: row.questionListIds,
    document: row.document && {
      fileId: row.document.fileId,
      title: row.document.title,
      type: row.document.type ?? null,
    },
    signatureLevel: row.signatureLevel,
    signingOrder: row.signingOrder,
    signers: signers.map((g) => ({
      _id: g.id,
      customerId: g.customerId,
      position: g.position,
      status: g.status,
      url: `${baseUrl}/action/${g.code}`,
      openedAt: isoOrNull(g.openedAt),
      codeSentAt: isoOrNull(g.codeSentAt),
      codeChannel: g.codeChannel,
      signedAt: isoOrNull(g.signedAt),
      declinedAt: isoOrNull(g.declinedAt),
      declineReason: g.declineReason,
    })),
    language: row.language,
    message: row.message,
    expiresAt: isoOrNull(row.expiresAt),
    notificationEmail: { send: row.notifyEmail },
    notificationSms: { send: row.notifySms },
    reminderSchedule: { reminder1Days: row.reminder1Days, reminder2Days: row.reminder2Days },
    createdBy: row.createdBy,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    sentAt: isoOrNull(row.sentAt),
    openedAt: isoOrNull(row.openedAt),
    completedAt: isoOrNull(row.completedAt),
    closedAt: isoOrNull(row.closedAt),
  };
}

export function toDetail(
  sessionRequest: SessionRequest,
  notifications: Notification[],
  history: SessionRequestDetail['history'],
): SessionRequestDetail {
  return { ...sessionRequest, notifications, history };
}
