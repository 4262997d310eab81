import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/zod';
import {
  donePage,
  gonePage,
  messagePage,
  type Page,
  type PageContext,
  reviewPage,
  signPage,
  stepPage,
  unknownPage,
} from '../../web/respondent-pages';
import { respondentTexts } from '../../web/respondent-texts';
import {
  type OpenAction,
  type RespondentDeps,
  type RespondentView,
  respondentLanguage,
  saveStep,
  submitAnswers,
  viewAction,
} from './respondent.service';

const CSRF_COOKIE = 'adk_csrf';
const params = z.object({
  code: z
    .string()
    .max(100)
    .meta({ param: { name: 'code', in: 'path' }, description: 'The action code' }),
});
const tags = ['Public pages'];

/** Wrong codes per client address: a guesser is slowed down long before 100 random bits could matter. */
export class WrongCodeLimiter {
  private readonly hits = new Map<string, { count: number; since: number }>();
  constructor(
    private readonly limit = 30,
    private readonly windowMs = 10 * 60_000,
  ) {}
  /** Seconds to wait when the address is over its limit, else 0. */
  blocked(address: string, now: number): number {
    const entry = this.hits.get(address);
    if (!entry || now - entry.since >= this.windowMs) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.since + this.windowMs - now) / 1000) : 0;
  }
  record(address: string, now: number): void {
    const entry = this.hits.get(address);
    if (!entry || now - entry.since >= this.windowMs) this.hits.set(address, { count: 1, since: now });
    else entry.count++;
    if (this.hits.size > 100_000) this.hits.clear(); // bounded memory under a spray of addresses
  }
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** The double-submit CSRF token: one per browser, in a SameSite=Strict cookie and in every form. */
function csrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = cookie(req, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  res.setHeader(
    'Set-Cookie',
    `${CSRF_COOKIE}=${token}; Path=/action; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
  return token;
}

function csrfValid(req: Request): boolean {
  const fromCookie = cookie(req, CSRF_COOKIE) ?? '';
  const fromForm = typeof req.body?._csrf === 'string' ? req.body._csrf : '';
  const a = Buffer.from(fromCookie);
  const b = Buffer.from(fromForm);
  return a.length === 43 && a.length === b.length && timingSafeEqual(a, b);
}

/** Form fields of the questions (`q.<id>`), each as a list of strings. */
function answersOf(body: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(body ?? {})) {
    if (!k.startsWith('q.')) continue;
    out[k] = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  }
  return out;
}

export function respondentRoutes(
  routes: Routes,
  deps: RespondentDeps & { secureCookies: boolean; limiter?: WrongCodeLimiter },
): void {
  const limiter = deps.limiter ?? new WrongCodeLimiter();
  const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

  /** Answers unknown and gone actions, and counts wrong codes; null when the page can go on. */
  const gate = (req: Request, view: RespondentView): Page | null => {
    if (view.outcome === 'unknown') {
      limiter.record(addressOf(req), deps.clock.now().getTime());
      return unknownPage();
    }
    if (view.outcome === 'gone') return gonePage(view.language);
    return null;
  };
  const limited = (req: Request, res: Response): Page | null => {
    const wait = limiter.blocked(addressOf(req), deps.clock.now().getTime());
    if (wait === 0) return null;
    res.setHeader('Retry-After', String(wait));
    return messagePage(
      'en',
      429,
      'Too many attempts',
      `Too many unknown links from your address. Try again in ${wait} s.`,
    );
  };
  /** What every form post checks first: the address is not blocked, and the CSRF token matches. */
  const formGuard = (req: Request, res: Response): Page | null =>
    limited(req, res) ??
    (csrfValid(req) ? null : messagePage('en', 403, 'Form expired', respondentTexts.en.expired));
  const contextOf = (
    req: Request,
    res: Response,
    view: OpenAction,
    code: string,
    nonce: string,
  ): PageContext => ({
    code,
    lang: respondentLanguage(req.query.lang, view),
    csrf: csrfToken(req, res, deps.secureCookies),
    nonce,
  });

  routes.page(
    {
      path: '/action/{code}',
      summary: 'The contact’s questionnaire (HTML): one section per page, then a review',
      description:
        'Query: `step` (a page number from 0, or `review`), `lang` (one of the templates’ languages). Marks a created or sent action opened (not on HEAD). 410 for a withdrawn or expired action, 404 for an unknown code (neither names the organisation); too many unknown codes from one address → 429.',
      tags,
      params,
      statuses: {
        200: 'The page',
        404: 'Unknown code',
        410: 'The action was withdrawn or has expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const block = limited(req, res);
      if (block) return block;
      const view = await viewAction(deps, p.code, req.method === 'GET');
      const stop = gate(req, view);
      if (stop || view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = contextOf(req, res, view, view.action.code, nonce);
      if (view.action.status === 'completed') return donePage(view, ctx);
      if (view.steps.length === 0) return signPage(view, ctx);
      if (req.query.step === 'review') return reviewPage(view, ctx);
      const index = Math.min(Math.max(Number(req.query.step ?? 0) || 0, 0), view.steps.length - 1);
      return stepPage(view, ctx, view.steps[index]!, {
        notice: req.query.saved === '1' ? respondentTexts[ctx.lang].saved : undefined,
      });
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}',
      summary: 'Save one page of answers (form post), then go to the next or previous page',
      description:
        'Fields: `_csrf`, `step`, `nav` (`next` checks the page’s required questions; `back` and `save` keep what is valid), and `q.<questionId>` per answer. Invalid answers re-render the page with the problems (400) and save nothing.',
      tags,
      params,
      statuses: {
        303: 'Saved: go to the next page',
        400: 'Problems with the answers',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const refused = formGuard(req, res);
      if (refused) return refused;
      const stepIndex = Number(req.body?.step);
      const nav = req.body?.nav === 'back' ? 'back' : req.body?.nav === 'save' ? 'save' : 'next';
      const result = await saveStep(
        deps,
        p.code,
        Number.isInteger(stepIndex) ? stepIndex : -1,
        answersOf(req.body),
        nav === 'next',
      );
      const stop = gate(req, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const view = result.view;
      const ctx = contextOf(req, res, view, view.action.code, nonce);
      const step = view.steps[stepIndex];
      const base = `/action/${view.action.code}?lang=${ctx.lang}`;
      if (!step || !result.saved) {
        if (step && result.issues.length > 0)
          return stepPage(view, ctx, step, { issues: result.issues, values: result.sent });
        return { redirect: base };
      }
      if (nav === 'save') return { redirect: `${base}&step=${step.index}&saved=1` };
      if (nav === 'back') return { redirect: `${base}&step=${Math.max(step.index - 1, 0)}` };
      return {
        redirect:
          step.index + 1 < view.steps.length ? `${base}&step=${step.index + 1}` : `${base}&step=review`,
      };
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/submit',
      summary: 'Submit the questionnaire (form post): creates the session and completes the action',
      tags,
      params,
      statuses: {
        303: 'Submitted',
        400: 'A required answer is missing',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const refused = formGuard(req, res);
      if (refused) return refused;
      const result = await submitAnswers(deps, p.code, req.query.lang);
      const stop = gate(req, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = contextOf(req, res, result.view, result.view.action.code, nonce);
      if (result.incomplete) {
        const step = result.view.steps[result.incomplete.stepIndex]!;
        return stepPage(result.view, ctx, step, { issues: result.incomplete.issues });
      }
      return { redirect: `/action/${result.view.action.code}?lang=${ctx.lang}` };
    },
  );
}
