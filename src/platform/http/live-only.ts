import type { RequestHandler } from 'express';
import { Forbidden } from '../kernel/errors';
import './request';

/**
 * Routes refused to test credentials (test mode, issue 31): what a test organisation shares with its live
 * one (staff users, sign-in) is managed in live mode. `reason` names it, in the refusal and the document.
 */
export function liveOnlyGuard(reason: string): RequestHandler {
  return (req, _res, next) => {
    if (req.ctx?.mode === 'test')
      throw new Forbidden(`${reason}: use a live key or client; test credentials cannot`);
    next();
  };
}

/** The route's description with the live-only rule added, for the OpenAPI document. */
export function withLiveOnlyNote<S extends { description?: string }>(spec: S, reason: string): S {
  const note = `${reason}: live credentials only (test credentials get 403).`;
  return { ...spec, description: [spec.description, note].filter(Boolean).join('\n\n') };
}
