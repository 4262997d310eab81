import { type SQL, sql } from 'drizzle-orm';
import type { EventFanOut } from '../../platform/events/fan-out';
import type { RequestContext } from '../../platform/kernel/context';

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
 * The adviser's notices, fanned out from the events in the statement that records them (like the
 * webhooks: platform/events/fan-out.ts), so a committed change always has its notice: for an action made
 * by an active staff user, an `adviser-notice` job per event when they want each, or — when they want a
 * digest — one `adviser-digest` job for them at the next 07:00 in `timeZone`, unless one is waiting.
 */
export function adviserFanOut(
  jobs: Record<'notice' | 'digest', { kind: string; maxAttempts: number }>,
  timeZone: string,
): EventFanOut {
  return (recorded: SQL): SQL[] => [
    sql`fan_out_adviser_targets AS (
      SELECT e.id AS event_id, e.organisation_id, e.type, e.subject_id, e.created_at, u.id AS user_id, u.notify
        FROM ${recorded} e
        JOIN session_requests s ON s.organisation_id = e.organisation_id AND s.id = e.subject_id
        JOIN users u ON u.organisation_id = s.organisation_id AND u.id = s.created_by
       WHERE e.type IN (${sql.join(
         Object.keys(NOTICE_EVENTS).map((t) => sql`${t}`),
         sql`, `,
       )})
         AND u.kind = 'staff' AND u.status = 'active' AND u.notify <> 'none')`,
    sql`fan_out_adviser_notices AS (
      INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
      SELECT gen_random_uuid(), t.organisation_id, ${jobs.notice.kind}::text, t.subject_id,
             jsonb_build_object('type', t.type, 'userId', t.user_id), 'pending', t.created_at,
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

/** An action as the digest names it: a row of digestStatement, as it comes back. */
export interface NoticeRow {
  id: string;
  type: string;
  status: 'completed' | 'declined' | 'expired';
  title: string | null;
  contact_data: Record<string, string> | null;
  at: string;
}

/**
 * The actions `userId` sent that completed, were declined or expired in [from, to), oldest first: what
 * their digest lists.
 */
export function digestStatement(ctx: RequestContext, userId: string, from: Date, to: Date): SQL {
  return sql`SELECT s.id, s.type, s.status, s.document->>'title' AS title,
                    (SELECT c.data FROM customers c WHERE c.organisation_id = s.organisation_id AND c.id = s.customer_id) AS contact_data,
                    coalesce(s.completed_at, s.closed_at) AS at
               FROM session_requests s
              WHERE s.organisation_id = ${ctx.organisationId}::uuid AND s.created_by = ${userId}::uuid
                AND s.status IN ('completed', 'declined', 'expired')
                AND coalesce(s.completed_at, s.closed_at) >= ${from.toISOString()}::timestamptz
                AND coalesce(s.completed_at, s.closed_at) < ${to.toISOString()}::timestamptz
              ORDER BY coalesce(s.completed_at, s.closed_at), s.id
              LIMIT 200`;
}
