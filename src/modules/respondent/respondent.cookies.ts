import type { Request, Response } from 'express';
import { appendCookie, cookie } from '../../platform/web/cookies';

const VISITOR_COOKIE = 'adk_visitor';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const VISITOR_DAYS = 90;

function token(req: Request, name: string): string | undefined {
  const value = cookie(req, name);
  return value && TOKEN.test(value) ? value : undefined;
}

/** This browser's campaign visitor token (one per campaign: the cookie's path is the campaign's link). */
export function visitorToken(req: Request): string | undefined {
  return token(req, VISITOR_COOKIE);
}

/**
 * Binds this browser to a new campaign visitor. SameSite=Lax, so that following the campaign link from
 * a mail or another site still finds the visitor's answers; form posts are guarded by the CSRF token.
 */
export function setVisitorCookie(res: Response, code: string, value: string, secure: boolean): void {
  appendCookie(
    res,
    `${VISITOR_COOKIE}=${value}; Path=/action/${code}; Max-Age=${VISITOR_DAYS * 86_400}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

const SIGNER_COOKIE = 'adk_signer';

/** The signer token of this browser, set once it confirmed a one-time code. */
export function signerToken(req: Request): string | undefined {
  return token(req, SIGNER_COOKIE);
}

/** Binds this browser to the signer that confirmed the code (30 minutes, this link only). */
export function setSignerCookie(res: Response, code: string, value: string, secure: boolean): void {
  appendCookie(
    res,
    `${SIGNER_COOKIE}=${value}; Path=/action/${encodeURIComponent(code)}; Max-Age=1800; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
}
