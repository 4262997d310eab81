import { randomBytes } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** The per-response nonce that lets the page's own inline script run (set by `pageHeaders`). */
export function nonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

const secured = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'unsafe-inline'"],
      imgSrc: ["'self'"],
      scriptSrc: [(_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  // Pages load nothing from elsewhere and are loaded by no one else.
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
});

/**
 * Security headers of every page (helmet): the strict content security policy — no script but the
 * page's own, with this response's nonce; no frames; forms post only here — no referrer, no sniffing;
 * and never cached or indexed.
 */
export const pageHeaders: RequestHandler = (req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  secured(req, res, next);
};

/**
 * Sends a drawn document page (PNG) to the browser that showed it: private, kept an hour (a page of a
 * stored document does not change), never sniffed as anything else.
 */
export function sendPageImage(res: Response, png: Buffer): void {
  res.status(200);
  res.setHeader('Content-Type', 'image/png');
  res.setHeader('Content-Length', String(png.length));
  res.setHeader('Cache-Control', 'private, max-age=3600');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(png);
}
