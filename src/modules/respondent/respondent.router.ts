import type { Request, Response } from 'express';
import { clientAddress } from '../../platform/http/address';
import { addressKey, type SharedCounter } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import type { CsrfGuard } from '../../platform/web/csrf';
import { z } from '../../platform/zod';
import {
  donePage,
  errorPage,
  gonePage,
  messagePage,
  type Page,
  type PageContext,
  reviewPage,
  signPage,
  startPage,
  stepPage,
  unknownPage,
} from '../../web/respondent-pages';
import { respondentTexts } from '../../web/respondent-texts';
import { startVisitor, visitorFields } from './campaign.service';
import { setVisitorCookie, signerToken, visitorToken } from './respondent.cookies';
import { contactQuery } from './respondent.query';
import { type Respondent, respondentLanguage, saveStep } from './respondent.service';
import { needsVisitor, type OpenAction, type RespondentView } from './respondent.view';
import { viewForSigning } from './signing';
import { code, type PageKit, type SigningRouteDeps, signerPage, signingRoutes } from './signing.router';
import { submitAnswers } from './submission';

const params = z.object({ code });
const tags = ['Public pages'];

/** Form fields of the questions (`q.<id>`), each as a list of strings; a Map, so no key is special. */
function answersOf(body: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body)) {
    if (!k.startsWith('q.')) continue;
    out.set(
      k,
      (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string'),
    );
  }
  return out;
}

/** A form field as one trimmed string ('' when absent, repeated or not text). */
function fieldOf(body: unknown, name: string): string {
  if (!body || typeof body !== 'object' || !Object.hasOwn(body, name)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

export interface RespondentRouteDeps extends SigningRouteDeps {
  secureCookies: boolean;
  /** The contact pages' CSRF guard (checked by the platform on every form post; tokens made here). */
  csrf: CsrfGuard;
  /** Unknown codes per address (30 per 10 minutes by default), counted in the shared store. */
  wrongCodes: SharedCounter;
  /** New campaign visitors per address (20 per 10 minutes by default). */
  newVisitors: SharedCounter;
}

export function respondentRoutes(routes: Routes, deps: RespondentRouteDeps): void {
  const { wrongCodes, newVisitors } = deps;
  const respondentOf = (req: Request): Respondent => ({
    visitorToken: visitorToken(req),
    signerToken: signerToken(req),
    client: {
      ip: clientAddress(req),
      userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
    },
  });

  const tooMany = (res: Response, wait: number, text: string): Page => {
    res.setHeader('Retry-After', String(wait));
    return messagePage('en', 429, 'Too many attempts', `${text} Try again in ${wait} s.`);
  };
  /**
   * Answers unknown and gone actions; null when the page can go on. Only unknown codes are counted and
   * limited: a valid link always works, whatever a colleague behind the same address mistyped.
   */
  const gate = async (req: Request, res: Response, view: RespondentView): Promise<Page | null> => {
    if (view.outcome === 'unknown') {
      const wait = await wrongCodes.blocked(addressKey(req));
      if (wait > 0) return tooMany(res, wait, 'Too many unknown links from your address.');
      await wrongCodes.hit(addressKey(req));
      return unknownPage();
    }
    if (view.outcome === 'gone') return gonePage(view.language, view.declined);
    return null;
  };
  const expired = (): Page => messagePage('en', 403, 'Form expired', respondentTexts.en.expired);
  const contextOf = (req: Request, res: Response, view: OpenAction, nonce: string): PageContext => ({
    // A signer's pages stay on their own link.
    code: view.signer?.code ?? view.action.code,
    lang: respondentLanguage(req.query.lang, view),
    csrf: deps.csrf.token(req, res),
    nonce,
  });
  const kit: PageKit = {
    respondentOf,
    gate,
    contextOf,
    expired,
    fieldOf,
    secureCookies: deps.secureCookies,
    questionnairePage: (req, ctx, view) => pageOf(req, ctx, view),
  };
  /** The page for an open action: thank-you, start (campaign), quicksign notice, review or a step. */
  const pageOf = (req: Request, ctx: PageContext, view: OpenAction): Page => {
    if (view.done) return donePage(view, ctx);
    if (needsVisitor(view)) return startPage(view, ctx);
    if (view.steps.length === 0) return signPage(view, ctx);
    if (req.query.step === 'review') return reviewPage(view, ctx);
    const index = Math.min(Math.max(Number(req.query.step ?? 0) || 0, 0), view.steps.length - 1);
    return stepPage(view, ctx, view.steps[index]!, {
      notice: req.query.saved === '1' ? respondentTexts[ctx.lang].saved : undefined,
    });
  };

  routes.page(
    {
      path: '/action/{code}',
      summary: 'The contact’s questionnaire (HTML): one section per page, then a review',
      description:
        'Query: `step` (a page number from 0, or `review`), `lang` (one of the templates’ languages). Marks a created or sent action opened (not on HEAD). A campaign link first asks this browser for a name and e-mail (see `POST /action/{code}/start`), then shows this browser’s own answers only. 410 for a withdrawn or expired action, 404 for an unknown code (neither names the organisation); too many unknown codes from one address → 429 for further unknown codes (valid codes keep working).',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      csrfFailed: expired,
      statuses: {
        200: 'The page',
        404: 'Unknown code',
        410: 'The action was withdrawn or has expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const open = req.method === 'GET';
      const hit = await viewForSigning(deps, p.code, respondentOf(req), open);
      const view = hit.view;
      const stop = await gate(req, res, view);
      if (stop || view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = contextOf(req, res, view, nonce);
      if (hit.facts && view.signer) return signerPage(deps, kit, req, ctx, view, hit.facts);
      return pageOf(req, ctx, view);
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/start',
      summary: 'Start a campaign link in this browser (form post): name and e-mail, then the questionnaire',
      description:
        'Campaign links only. Fields: `_csrf`, `firstName`, `lastName`, `email`. Creates a contact in the campaign’s portfolio, or uses the one with this e-mail there, and a visitor bound to this browser by an HttpOnly cookie `adk_visitor` (Path=/action/<code>, SameSite=Lax): the visitor’s answers and session are their own. At most 20 new visitors per address per 10 minutes (429).',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      csrfFailed: expired,
      statuses: {
        303: 'Started: go to the first page',
        400: 'A field is missing or invalid',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes or new visitors from this address',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const wait = await newVisitors.blocked(addressKey(req));
      if (wait > 0) return tooMany(res, wait, 'Too many new answers from your address.');
      const details = {
        firstName: fieldOf(req.body, 'firstName'),
        lastName: fieldOf(req.body, 'lastName'),
        email: fieldOf(req.body, 'email'),
      };
      const result = await startVisitor(deps, p.code, details);
      const stop = await gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const view = result.view;
      const ctx = contextOf(req, res, view, nonce);
      const base = `/action/${view.action.code}?lang=${ctx.lang}`;
      if (result.issues.length > 0) {
        const sent = new Map(visitorFields.map((f) => [f, details[f]]));
        return startPage(view, ctx, { issues: result.issues, sent });
      }
      if (result.token) {
        await newVisitors.hit(addressKey(req));
        setVisitorCookie(res, view.action.code, result.token, deps.secureCookies);
      }
      return { redirect: base };
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}',
      summary: 'Save one page of answers (form post), then go to the next or previous page',
      description:
        'Fields: `_csrf`, `step`, `nav` (`next` checks the page’s required questions; `back` and `save` keep what is valid), and `q.<questionId>` per answer (repeated for multiple choice; a question that takes one answer refuses two). Invalid answers re-render the page with the problems (400) and save nothing.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      csrfFailed: expired,
      statuses: {
        303: 'Saved: go to the next page',
        400: 'Problems with the answers',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const stepIndex = Number(fieldOf(req.body, 'step'));
      const navField = fieldOf(req.body, 'nav');
      const nav = navField === 'back' ? 'back' : navField === 'save' ? 'save' : 'next';
      const result = await saveStep(
        deps,
        p.code,
        respondentOf(req),
        Number.isInteger(stepIndex) ? stepIndex : -1,
        answersOf(req.body),
        nav === 'next',
      );
      const stop = await gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const view = result.view;
      const ctx = contextOf(req, res, view, nonce);
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
      description:
        'Fields: `_csrf`. Creates the session (or its next version after a reopen) and completes the action through the one use case that completes actions. A campaign visitor gets their own session; the campaign stays open.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      csrfFailed: expired,
      statuses: {
        303: 'Submitted',
        400: 'A required answer is missing',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async ({ params: p, req, res, nonce }) => {
      const result = await submitAnswers(deps, p.code, respondentOf(req), req.query.lang);
      const stop = await gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = contextOf(req, res, result.view, nonce);
      if (result.incomplete) {
        const step = result.view.steps[result.incomplete.stepIndex]!;
        return stepPage(result.view, ctx, step, { issues: result.incomplete.issues });
      }
      return { redirect: `/action/${result.view.action.code}?lang=${ctx.lang}` };
    },
  );

  signingRoutes(routes, deps, kit);
}
