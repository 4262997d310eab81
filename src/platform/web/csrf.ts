import { doubleCsrf } from 'csrf-csrf';
import type { Request, Response } from 'express';

/** Guards a browser audience's form posts (signed double-submit tokens, `csrf-csrf`). */
export interface CsrfGuard {
  /** The token for this browser's forms (sets or refreshes its cookie). */
  token(req: Request, res: Response): string;
  /**
   * Whether the request carries the token of its cookie: form field `_csrf`, header `x-csrf-token`, or
   * on a GET (checked only on pages that ask for it) or a file upload the query parameter `_csrf`.
   */
  valid(req: Request): boolean;
}

export interface CsrfOptions {
  /** Key of the tokens' HMAC; secrets[0] signs, all verify (key rotation). */
  secrets: string[];
  cookieName: string;
  path: string;
  secure: boolean;
  /** What the token is bound to: the signed-in session, or a constant for anonymous pages. */
  sessionOf(req: Request): string;
}

function tokenIn(req: Request): string | undefined {
  const field = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof field === 'string') return field;
  const header = req.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  // A link that starts something for the browser (a page that opted in: PageSpec.csrfOnGet), or a file
  // upload, whose body is read only after the check (PageSpec.upload).
  const inQuery = req.method === 'GET' || (req.method === 'POST' && req.is('multipart/form-data'));
  const query = inQuery ? (req.query as Record<string, unknown> | undefined)?._csrf : undefined;
  return typeof query === 'string' ? query : undefined;
}

export function csrfGuard(options: CsrfOptions): CsrfGuard {
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => options.secrets,
    getSessionIdentifier: options.sessionOf,
    cookieName: options.cookieName,
    cookieOptions: { sameSite: 'strict', path: options.path, secure: options.secure, httpOnly: true },
    getCsrfTokenFromRequest: tokenIn,
  });
  return {
    token: (req, res) => {
      req.cookies ??= {};
      return generateCsrfToken(req, res);
    },
    valid: (req) => {
      req.cookies ??= {};
      return validateRequest(req);
    },
  };
}
