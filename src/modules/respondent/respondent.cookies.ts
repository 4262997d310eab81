import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

const CSRF_COOKIE = 'adk_csrf';
const VISITOR_COOKIE = 'adk_visitor';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const VISITOR_DAYS = 90;

/**
 * One cookie of the request, or undefined. Never throws: a value with broken percent-encoding (`%zz`)
 * counts as absent, as does anything that is not a token.
 */
export function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function token(req: Request, name: string): string | undefined {
  const value = cookie(req, name);
  return value && TOKEN.test(value) ? value : undefined;
}

function appendCookie(res: Response, value: string): void {
  const existing = res.getHeader('Set-Cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  res.setHeader('Set-Cookie', [...list, value]);
}

/** The double-submit CSRF token: one per browser, in a SameSite=Strict cookie and in every form. */
export function csrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = token(req, CSRF_COOKIE);
  if (existing) return existing;
  const fresh = randomBytes(32).toString('base64url');
  appendCookie(
    res,
    `${CSRF_COOKIE}=${fresh}; Path=/action; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
  return fresh;
}

export function csrfValid(req: Request): boolean {
  const fromCookie = token(req, CSRF_COOKIE);
  const fromForm = typeof req.body?._csrf === 'string' ? req.body._csrf : '';
  if (!fromCookie) return false;
  const a = Buffer.from(fromCookie);
  const b = Buffer.from(fromForm);
  return a.length === b.length && timingSafeEqual(a, b);
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
