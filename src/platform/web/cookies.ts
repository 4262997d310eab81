import type { Request, RequestHandler, Response } from 'express';

/**
 * The request's cookies as plain data. Never throws: a value with broken percent-encoding (`%zz`) counts
 * as absent, and names such as `__proto__` are ordinary keys of a prototype-less object.
 */
function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // ignored: not a value we could have set
    }
  }
  return out;
}

/** Fills `req.cookies` (read by the CSRF guard and the session middleware) once per request. */
export const readCookies: RequestHandler = (req, _res, next) => {
  if (!req.cookies) req.cookies = parseCookies(req.headers.cookie);
  next();
};

/** One cookie of the request, or undefined. */
export function cookie(req: Request, name: string): string | undefined {
  const jar: Record<string, string> = req.cookies ?? parseCookies(req.headers.cookie);
  return Object.hasOwn(jar, name) ? jar[name] : undefined;
}

/** Adds a Set-Cookie header, keeping those already set. */
export function appendCookie(res: Response, value: string): void {
  const existing = res.getHeader('Set-Cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  res.setHeader('Set-Cookie', [...list, value]);
}
