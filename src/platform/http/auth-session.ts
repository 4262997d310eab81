// The staff browser session as a credential (express-session's store, platform/web/sessions.ts): who
// it belongs to now, and when it has ended (idle or too old, the password changed, revoked, deactivated).

import type { Request } from 'express';
import './request';
import type { Database, Tx } from '../db/database';
import type { Clock } from '../kernel/clock';
import { Unauthenticated } from '../kernel/errors';
import { endStaffSession, type SessionEndReason } from '../web/sessions';
import type { Authenticator, Principal } from './auth';
import { findSessionUser } from './credentials.repository';

interface SessionUserRow {
  user_id: string;
  organisation_id: string;
  user_status: 'active' | 'deactivated';
  user_groups: string[];
  auth_version: number;
  kind: 'staff' | 'service';
  password_changed_at: Date | string | null;
  sessions_ended_at: Date | string | null;
}

export type { SessionEndReason };

export class SessionEnded extends Unauthenticated {
  constructor(
    readonly reason: SessionEndReason,
    message: string,
  ) {
    super(message);
  }
}

const endedMessages: Record<SessionEndReason, string> = {
  timeout: 'Your session has ended: sign in again',
  deactivated: 'Your account has been deactivated',
  password: 'Your password was changed: sign in again',
  deleted: 'Your account no longer exists',
  revoked: 'You were signed out everywhere: sign in again',
  access: 'What you may do here was changed: sign in again',
};

const sessionEnded = (reason: SessionEndReason) => new SessionEnded(reason, endedMessages[reason]);

export interface SessionTimeouts {
  /** Signed out after this long without a request. */
  idleMs: number;
  /** Signed out this long after signing in, however active. */
  absoluteMs: number;
}

/**
 * A staff browser session (express-session, read before this runs). The user is read on every request
 * — one indexed row — so a deactivated or deleted user, a changed password or a passed timeout ends
 * the session on the next request: the session row is deleted and the request is refused (pages send
 * the browser to the sign-in page).
 */
export class SessionAuthenticator implements Authenticator {
  readonly credential = 'session';

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly timeouts: SessionTimeouts,
  ) {}

  presentIn(req: Request): boolean {
    return req.session?.staff !== undefined || req.session?.ended !== undefined;
  }

  async authenticate(req: Request): Promise<Principal> {
    // Ended from elsewhere (deactivation, "sign out everywhere"): told why once, then gone.
    const endedBy = req.session?.ended;
    if (endedBy) {
      await endStaffSession(req);
      throw sessionEnded(endedBy);
    }
    const staff = req.session?.staff;
    if (!staff) throw new Unauthenticated('Not signed in');
    const now = this.clock.now().getTime();
    if (now - staff.seenAt > this.timeouts.idleMs || now - staff.signedInAt > this.timeouts.absoluteMs) {
      await endStaffSession(req);
      throw sessionEnded('timeout');
    }
    const row = await this.database.tenantTransaction(
      {
        organisationId: staff.organisationId,
        userId: null,
        apiKeyId: null,
        authVersion: 0,
        at: new Date(now),
      },
      async (tx) => (await findSessionUser<SessionUserRow>(tx, staff.userId))[0],
    );
    const principal = await this.check(req, row);
    // Idle time is measured from the last request; the row is rewritten at most once a minute.
    if (now - staff.seenAt > 60_000) {
      staff.seenAt = now;
      req.session.touch();
    }
    return principal;
  }

  async refresh(req: Request, tx: Tx): Promise<Principal> {
    const staff = req.session?.staff;
    if (!staff) throw new Unauthenticated('Not signed in');
    return this.check(req, (await findSessionUser<SessionUserRow>(tx, staff.userId))[0]);
  }

  private async check(req: Request, row: SessionUserRow | undefined): Promise<Principal> {
    const staff = req.session.staff as NonNullable<typeof req.session.staff>;
    const changed = row?.password_changed_at ? new Date(row.password_changed_at).getTime() : 0;
    let ended: SessionEnded | null = null;
    if (row?.kind !== 'staff') ended = sessionEnded('deleted');
    else if (row.user_status !== 'active') ended = sessionEnded('deactivated');
    else if (changed > staff.signedInAt) ended = sessionEnded('password');
    // Every session from before the user's sessions were ended (one a request in flight wrote back).
    else if (row.sessions_ended_at && new Date(row.sessions_ended_at).getTime() > staff.signedInAt)
      ended = sessionEnded('revoked');
    if (ended) {
      await endStaffSession(req);
      throw ended;
    }
    const user = row as SessionUserRow;
    return {
      organisationId: user.organisation_id,
      userId: user.user_id,
      apiKeyId: null,
      authVersion: user.auth_version,
      groups: user.user_groups,
      status: user.user_status,
      caller: { kind: 'session', userId: user.user_id, sessionId: req.sessionID },
    };
  }
}
