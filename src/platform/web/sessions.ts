import connectPgSimple from 'connect-pg-simple';
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

declare module 'express-session' {
  interface SessionData {
    staff?: StaffSignIn;
  }
}

export interface StaffSessionOptions {
  database: Database;
  /** Cookie-signing secrets: [0] signs, all verify. */
  secrets: string[];
  secure: boolean;
  /** The session ends this long after sign-in, whatever happens (the cookie's lifetime too). */
  absoluteMs: number;
}

export const STAFF_SESSION_COOKIE = 'adk_staff';

/**
 * Staff browser sessions: server-side in PostgreSQL (express-session + connect-pg-simple over the app's
 * own database, table `staff_sessions` from a migration), an HttpOnly cookie holding only the signed
 * session id — `__Host-` prefixed and Secure when served over HTTPS; SameSite=Lax so that a deep link
 * followed from a CRM arrives signed in, while form posts carry a CSRF token. Nothing is stored for a
 * browser that has not signed in.
 */
export function staffSessions(options: StaffSessionOptions): RequestHandler {
  const PgStore = connectPgSimple(session);
  const store = new PgStore({
    pool: { query: (text: string, params?: unknown[]) => options.database.query(text, params) } as never,
    tableName: 'staff_sessions',
    createTableIfMissing: false,
    // Expired rows are deleted at each sign-in (accounts module), not by a timer in every process.
    pruneSessionInterval: false,
  });
  return session({
    store,
    name: options.secure ? `__Host-${STAFF_SESSION_COOKIE}` : STAFF_SESSION_COOKIE,
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
