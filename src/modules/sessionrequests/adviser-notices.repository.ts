import { type SQL, sql } from 'drizzle-orm';
import type { MessagePurpose } from '../../i18n/messages';
import type { EventFanOut } from '../../platform/events/fan-out';
import type { RequestContext } from '../../platform/kernel/context';
import { NOTIFICATION_JOB } from './sessionrequests.view';

/**
 * The events an adviser hears of about an action they sent, and the status each leaves it in: it
 * completed (on a signing action: everyone signed), was declined, expired.
 */
export const NOTICE_EVENTS: Record<string, 'completed' | 'declined' | 'expired'> = {
  'sessionrequest.completed': 'completed',
  'sessionrequest.declined': 'declined',
  'sessionrequest.expired': 'expired',
};

/** The local hour the daily digest goes out at, in the organisation's time zone. */
export const DIGEST_HOUR = 7;

/**
 * Who hears of a message to a contact that could not be delivered: not an event (the contract's
 * catalogue has none) but a notification job's final failure, told in the transaction that records it.
 */
export const NOT_DELIVERED = 'notification.failed';

/** What a notice tells of an action: the status its event left it in, or a message not delivered. */
export type NoticeStatus = 'completed' | 'declined' | 'expired' | 'notDelivered';

type NoticeJobs = Record<'notice' | 'digest', { kind: string; maxAttempts: number }>;

/** The action's sender listens: an active staff user (never an integration's account) who wants notices. */
const LISTENING = sql`u.kind = 'staff' AND u.status = 'active' AND u.notify <> 'none'`;

/**
 * The notices to queue, as WITH entries: `targets` answers who hears of what (organisation_id, type,
 * subject_id, created_at, user_id, notify, and `detail`, added to the notice's payload); for each, an
 * `adviser-notice` job when they want each, or — when they want a digest — one `adviser-digest` job for
 * them at the next 07:00 in `timeZone`, unless one is waiting.
 */
function noticeJobs(targets: SQL, jobs: NoticeJobs, timeZone: string): SQL[] {
  return [
    sql`fan_out_adviser_targets AS (${targets})`,
    sql`fan_out_adviser_notices AS (
      INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
      SELECT gen_random_uuid(), t.organisation_id, ${jobs.notice.kind}::text, t.subject_id,
             jsonb_build_object('type', t.type, 'userId', t.user_id) || t.detail, 'pending', t.created_at,
             ${jobs.notice.maxAttempts}::integer, t.created_at
        FROM fan_out_adviser_targets t
       WHERE t.notify = 'each'
      RETURNING id)`,
    sql`fan_out_adviser_digests AS (
      INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
      SELECT DISTINCT ON (t.user_id) gen_random_uuid(), t.organisation_id, ${jobs.digest.kind}::text, t.user_id,
             '{}'::jsonb, 'pending',
             (date_trunc('day', t.created_at AT TIME ZONE ${timeZone}::text)
               + CASE WHEN (t.created_at AT TIME ZONE ${timeZone}::text)::time < make_time(${DIGEST_HOUR}::int, 0, 0)
                      THEN interval '0 days' ELSE interval '1 day' END
               + make_interval(hours => ${DIGEST_HOUR}::int)) AT TIME ZONE ${timeZone}::text,
             ${jobs.digest.maxAttempts}::integer, t.created_at
        FROM fan_out_adviser_targets t
       WHERE t.notify = 'digest'
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.organisation_id = t.organisation_id
                            AND j.subject_id = t.user_id AND j.kind = ${jobs.digest.kind}::text AND j.status = 'pending')
      RETURNING id)`,
  ];
}

/**
 * The adviser's notices, fanned out from the events in the statement that records them (like the
 * webhooks: platform/events/fan-out.ts), so a committed change always has its notice: for an action made
 * by an active staff user, as they chose (noticeJobs).
 */
export function adviserFanOut(jobs: NoticeJobs, timeZone: string): EventFanOut {
  return (recorded: SQL): SQL[] =>
    noticeJobs(
      sql`SELECT e.organisation_id, e.type, e.subject_id, e.created_at, u.id AS user_id, u.notify,
                 '{}'::jsonb AS detail
            FROM ${recorded} e
            JOIN session_requests s ON s.organisation_id = e.organisation_id AND s.id = e.subject_id
            JOIN users u ON u.organisation_id = s.organisation_id AND u.id = s.created_by
           WHERE e.type IN (${sql.join(
             Object.keys(NOTICE_EVENTS).map((t) => sql`${t}`),
             sql`, `,
           )})
             AND ${LISTENING}`,
      jobs,
      timeZone,
    );
}

/**
 * Queues, as its sender chose, the notice that `notification` (a notification job of the action
 * `actionId`) failed for good: run in the transaction that records the failure.
 */
export function notDeliveredStatement(
  ctx: RequestContext,
  notification: { id: string; actionId: string },
  jobs: NoticeJobs,
  timeZone: string,
): SQL {
  const targets = sql`SELECT s.organisation_id, ${NOT_DELIVERED}::text AS type, s.id AS subject_id,
                             ${ctx.at.toISOString()}::timestamptz AS created_at, u.id AS user_id, u.notify,
                             jsonb_build_object('notificationId', ${notification.id}::text) AS detail
                        FROM session_requests s
                        JOIN users u ON u.organisation_id = s.organisation_id AND u.id = s.created_by
                       WHERE s.organisation_id = ${ctx.organisationId}::uuid
                         AND s.id = ${notification.actionId}::uuid AND ${LISTENING}`;
  return sql`WITH ${sql.join(noticeJobs(targets, jobs, timeZone), sql`, `)} SELECT 1`;
}

/**
 * What a notice says of an action (a row of digestStatement or undeliveredStatement, as it comes back):
 * for a message not delivered, also its channel, purpose and why (its job's last error), and the contact
 * it was for (a signer's, on a signing action).
 */
export interface NoticeRow {
  id: string;
  type: string;
  status: NoticeStatus;
  title: string | null;
  contact_data: Record<string, string> | null;
  channel: 'email' | 'sms' | null;
  purpose: MessagePurpose | null;
  reason: string | null;
}

/** The action's invitations, reminders and open-again notices that failed for good, among `where`. */
function undelivered(ctx: RequestContext, where: SQL): SQL {
  // CASE, not coalesce(…): row-level security lets only the first be an index condition.
  return sql`SELECT s.id, s.type, 'notDelivered'::text AS status, s.document->>'title' AS title,
                    (SELECT c.data FROM customers c
                      WHERE c.organisation_id = s.organisation_id
                        AND c.id = CASE WHEN g.customer_id IS NULL THEN s.customer_id
                                        ELSE g.customer_id END) AS contact_data,
                    j.finished_at AS at, j.payload->>'channel' AS channel, j.payload->>'purpose' AS purpose,
                    j.last_error AS reason
               FROM jobs j
               JOIN session_requests s ON s.organisation_id = j.organisation_id AND s.id = j.subject_id
               LEFT JOIN signers g ON g.organisation_id = s.organisation_id AND g.session_request_id = s.id
                                  AND g.id::text = j.payload->>'signerId'
              WHERE j.organisation_id = ${ctx.organisationId}::uuid AND j.kind = ${NOTIFICATION_JOB}::text
                AND j.status = 'failed' AND ${where}`;
}

/** The message not delivered that an adviser's notice is about (a notification job's id). */
export function undeliveredStatement(ctx: RequestContext, notificationId: string): SQL {
  return undelivered(ctx, sql`j.id = ${notificationId}::uuid`);
}

/**
 * The actions `userId` sent that completed, were declined or expired in [from, to), and their messages
 * that could not be delivered then, oldest first: what their digest lists.
 */
export function digestStatement(ctx: RequestContext, userId: string, from: Date, to: Date): SQL {
  const since = sql`${from.toISOString()}::timestamptz`;
  const until = sql`${to.toISOString()}::timestamptz`;
  return sql`(SELECT s.id, s.type, s.status, s.document->>'title' AS title,
                     (SELECT c.data FROM customers c WHERE c.organisation_id = s.organisation_id AND c.id = s.customer_id) AS contact_data,
                     coalesce(s.completed_at, s.closed_at) AS at,
                     NULL::text AS channel, NULL::text AS purpose, NULL::text AS reason
                FROM session_requests s
               WHERE s.organisation_id = ${ctx.organisationId}::uuid AND s.created_by = ${userId}::uuid
                 AND s.status IN ('completed', 'declined', 'expired')
                 AND coalesce(s.completed_at, s.closed_at) >= ${since}
                 AND coalesce(s.completed_at, s.closed_at) < ${until})
             UNION ALL
             (${undelivered(ctx, sql`s.created_by = ${userId}::uuid AND j.finished_at >= ${since} AND j.finished_at < ${until}`)})
             ORDER BY at, id
             LIMIT 200`;
}
