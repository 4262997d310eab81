import type { RequestHandler } from 'express';
import type { SecretBox } from '../crypto/sealed';
import type { Database } from '../db/database';
import type { WebKit } from '../http/routes';
import { readCookies } from './cookies';
import { csrfGuard } from './csrf';
import { staffSessions } from './sessions';

/**
 * The browser plumbing of the pages: cookies read once; staff sessions (only a browser that signed in
 * has one); the CSRF guards of the two audiences. Their keys are derived from ENCRYPTION_KEYS.
 */
export function browserPlumbing(options: {
  database: Database;
  box: SecretBox;
  /** Served over HTTPS: Secure, `__Host-` prefixed cookies. */
  secure: boolean;
  /** A staff session ends this long after sign-in, whatever its use. */
  absoluteMs: number;
  /** Where the API is mounted (see StaffSessionOptions). */
  apiPath: string;
}): { middleware: RequestHandler[]; web: WebKit } {
  const { database, box, secure } = options;
  const csrfSecrets = [box.mac('csrf', 'v1')];
  const sessions = staffSessions({
    database,
    secrets: [box.mac('staff-session', 'v1')],
    secure,
    absoluteMs: options.absoluteMs,
    apiPath: options.apiPath,
  });
  const web: WebKit = {
    signInPath: '/signin',
    csrf: {
      contact: csrfGuard({
        secrets: csrfSecrets,
        cookieName: 'adk_csrf',
        path: '/action',
        secure,
        sessionOf: () => 'contact',
      }),
      staff: csrfGuard({
        secrets: csrfSecrets,
        cookieName: secure ? '__Host-adk_staff_csrf' : 'adk_staff_csrf',
        path: '/',
        secure,
        sessionOf: (req) => (req.session?.staff ? req.sessionID : 'anonymous'),
      }),
    },
  };
  return { middleware: [readCookies, sessions], web };
}
