import type { JobRecord, NewJob } from '../../platform/jobs/jobs.repository';
import { iso } from '../../platform/schemas';
import type { SessionRequestRow } from './sessionrequests.repository';
import type { Notification, SessionRequest, SessionRequestDetail } from './sessionrequests.schemas';

export const NOTIFICATION_JOB = 'notification';
export const EXPIRY_JOB = 'session-request-expiry';
/** Jobs that stop mattering once an action is completed, deactivated or expired. */
export const closingJobKinds = [NOTIFICATION_JOB, EXPIRY_JOB];

export interface Channels {
  email: boolean;
  sms: boolean;
}
export type Purpose = Notification['purpose'];
export interface NotificationPayload {
  channel: Notification['channel'];
  purpose: Purpose;
}

const DAY_MS = 86_400_000;
/** E-mail outages of about an hour are ridden out: 8 attempts, 30 s doubling (retryDelayMs). */
const NOTIFICATION_ATTEMPTS = 8;

/** The notification jobs for one send: the message now, then reminders that many days later, per channel. */
export function notificationJobs(
  subjectId: string,
  channels: Channels,
  purpose: Purpose,
  reminders: { reminder1Days?: number; reminder2Days?: number } | undefined,
  now: Date,
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
      const payload: NotificationPayload = { channel, purpose: step.purpose };
      jobs.push({
        kind: NOTIFICATION_JOB,
        subjectId,
        payload: { ...payload },
        runAt: step.at,
        maxAttempts: NOTIFICATION_ATTEMPTS,
      });
    }
  }
  return jobs;
}

export function expiryJob(subjectId: string, at: Date): NewJob {
  return { kind: EXPIRY_JOB, subjectId, payload: {}, runAt: at, maxAttempts: 20 };
}

const notificationStatus: Record<JobRecord['status'], Notification['status']> = {
  pending: 'pending',
  running: 'sending',
  done: 'sent',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function notificationFromJob(job: JobRecord): Notification {
  const payload = job.payload as unknown as NotificationPayload;
  return {
    channel: payload.channel,
    purpose: payload.purpose,
    status: notificationStatus[job.status],
    attempts: job.attempts,
    lastError: job.lastError,
    scheduledFor: iso(job.runAt),
    sentAt: job.status === 'done' && job.finishedAt ? iso(job.finishedAt) : null,
  };
}

/** A notification just queued (the create answer), without reading it back. */
export function pendingNotification(job: NewJob): Notification {
  const payload = job.payload as unknown as NotificationPayload;
  return {
    channel: payload.channel,
    purpose: payload.purpose,
    status: 'pending',
    attempts: 0,
    lastError: null,
    scheduledFor: iso(job.runAt),
    sentAt: null,
  };
}

const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

export function toSessionRequest(row: SessionRequestRow, baseUrl: string): SessionRequest {
  return {
    _id: row.id,
    code: row.code,
    url: `${baseUrl}/action/${row.code}`,
    type: row.type,
    status: row.status,
    customerId: row.customerId,
    portfolioId: row.portfolioId,
    questionListIds: row.questionListIds,
    document: row.document,
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
