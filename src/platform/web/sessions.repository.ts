import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../db/database';
import type { SessionEndReason } from './sessions';

/**
 * Ends every browser session of the user at once (deactivation, narrower groups, "sign out
 * everywhere"), in the caller's transaction, and answers how many were signed in. Each row keeps only
 * why it ended (no user, nothing to act with), so that its browser is told at its next request, which
 * deletes it; the user's `sessions_ended_at`, set by the caller in the same change, refuses a session
 * that a request in flight writes back.
 */
export async function endSessionsOf(
  q: Queryable,
  organisationId: string,
  userId: string,
  reason: SessionEndReason,
): Promise<number> {
  const rows = await queryRows<{ live: boolean }>(
    q,
    sql`WITH old AS (
          SELECT sid, (sess->'staff') IS NOT NULL AS live FROM staff_sessions
           WHERE organisation_id = ${organisationId}::uuid AND user_id = ${userId}::uuid FOR UPDATE)
        UPDATE staff_sessions s SET sess = json_build_object('cookie', s.sess->'cookie', 'ended', ${reason}::text)
          FROM old WHERE s.sid = old.sid
        RETURNING old.live`,
  );
  return rows.filter((r) => r.live).length;
}
