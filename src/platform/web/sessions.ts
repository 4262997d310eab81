import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import type { Database } from '../db/database';

/** What a signed-in staff browser's session holds (in `staff_sessions.sess`). */
export interface StaffSignIn {
  organisationId: string;
  userId: string;
  /** Epoch ms (the app clock): the absolute timeout counts from here. */
  signedInAt: number;
  /** Epoch ms of the last request: the idle timeout counts from here. */
  seenAt: number;
}

/** Why a browser session ended: a code the sign-in page turns into its own words (never free text). */
export type SessionEndReason = 'timeout' | 'deactivated' | 'password' | 'deleted' | 'revoked' | 'access';

declare module 'express-session' {
  interface SessionData {
    staff?: StaffSignIn;
    /** A session ended from elsewhere (deactivation, "sign out everywhere"): why, told at its next request. */
    ended?: SessionEndReason;
  }
}

export interface StaffSessionOptions {
  database: Database;
  /** Cookie-signing secrets: [0] signs, all verify. */
  secrets: string[];
  secure: boolean;
  /** The session ends this long after sign-in, whatever happens (the cookie's lifetime too). */
  absoluteMs: number;
  /**
   * Where the API is mounted: a call there without the session cookie (a CRM's key, a partner's token)
   * has no session to read, and the API never starts one (pages do), so it skips the middleware.
   */
  apiPath: string;
}

const STAFF_SESSION_COOKIE = 'adk_staff';

/** What the table holds for a session id: its SHA-256, so that a reader of the table cannot use it. */
const stored = (sid: string) => createHash('sha256').update(sid).digest('base64url');

type Done<T = void> = (err?: unknown, value?: T) => void;

/**
 * express-session's store over the app's database, table `staff_sessions`: rows keyed by the hash of
 * the session id, with the user they belong to once signed in (so that all of a user's sessions can
 * end at once); a browser signing in with a provider keeps its pending sign-ins in one before. A row past its `expire` is never answered; expired rows are
 * deleted by the retention job and at each sign-in.
 */
class StaffSessionStore extends session.Store {
  constructor(
    private readonly database: Database,
    private readonly absoluteMs: number,
  ) {
    super();
  }

  private run<T>(done: Done<T> | undefined, work: () => Promise<T>): void {
    work().then(
      (value) => done?.(undefined, value),
      (err) => done?.(err),
    );
  }

  override get(sid: string, done: Done<session.SessionData | null>): void {
    this.run(done, async () => {
      const { rows } = await this.database.query(
        'SELECT sess FROM staff_sessions WHERE sid = $1 AND expire >= now()',
        [stored(sid)],
      );
      const sess = (rows[0] as { sess?: unknown } | undefined)?.sess;
      return (typeof sess === 'string' ? JSON.parse(sess) : (sess ?? null)) as session.SessionData | null;
    });
  }

  override set(sid: string, sess: session.SessionData, done?: Done): void {
    this.run(done, async () => {
      const staff = sess.staff;
      await this.database.query(
        `INSERT INTO staff_sessions (sid, sess, expire, organisation_id, user_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expire = excluded.expire,
           organisation_id = excluded.organisation_id, user_id = excluded.user_id`,
        [
          stored(sid),
          JSON.stringify(sess),
          this.expiry(sess).toISOString(),
          staff?.organisationId ?? null,
          staff?.userId ?? null,
        ],
      );
    });
  }

  override touch(sid: string, sess: session.SessionData, done?: Done): void {
    this.run(done, async () => {
      await this.database.query('UPDATE staff_sessions SET expire = $2 WHERE sid = $1', [
        stored(sid),
        this.expiry(sess).toISOString(),
      ]);
    });
  }

  override destroy(sid: string, done?: Done): void {
    this.run(done, async () => {
      await this.database.query('DELETE FROM staff_sessions WHERE sid = $1', [stored(sid)]);
    });
  }

  private expiry(sess: session.SessionData): Date {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + this.absoluteMs);
  }
}

/**
 * Staff browser sessions: server-side in PostgreSQL (express-session over the app's own database, table
 * `staff_sessions` from a migration, ids stored hashed), an HttpOnly cookie holding only the signed
 * session id — `__Host-` prefixed and Secure when served over HTTPS; SameSite=Lax so that a deep link
 * followed from a CRM arrives signed in, while form posts carry a CSRF token. Nothing is stored for a
 * browser that has neither signed in nor started a sign-in with a provider.
 */
export function staffSessions(options: StaffSessionOptions): RequestHandler {
  const cookieName = options.secure ? `__Host-${STAFF_SESSION_COOKIE}` : STAFF_SESSION_COOKIE;
  const sessions = session({
    store: new StaffSessionStore(options.database, options.absoluteMs),
    name: cookieName,
    secret: options.secrets,
    resave: false,
    saveUninitialized: false,
    unset: 'destroy',
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: options.secure,
      path: '/',
      maxAge: options.absoluteMs,
    },
  });
  // Skipping it saved such a call 0.3 ms of CPU (issue 29).
  const { apiPath } = options;
  const isApiCall = (path: string) => path === apiPath || path.startsWith(`${apiPath}/`);
  return (req, res, next) => {
    if (req.cookies?.[cookieName] === undefined && isApiCall(req.path)) return next();
    return sessions(req, res, next);
  };
}

/** Starts a signed-in session for the user in a fresh session id (no fixation). */
export async function beginStaffSession(req: Request, signIn: StaffSignIn): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    req.session.regenerate((err) => (err ? reject(err) : resolve())),
  );
  req.session.staff = signIn;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** Ends this browser's session (sign-out, timeout, deactivated user); the row is deleted. */
export async function endStaffSession(req: Request): Promise<void> {
  if (!req.session) return;
  await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}
