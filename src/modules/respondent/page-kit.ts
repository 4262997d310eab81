import type { Request, Response } from 'express';
import { respondentTexts } from '../../i18n/respondent';
import { clientAddress } from '../../platform/http/address';
import { addressKey, type SharedCounter } from '../../platform/http/rate-limit';
import type { CsrfGuard } from '../../platform/web/csrf';
import {
  donePage,
  gonePage,
  messagePage,
  type Page,
  type PageContext,
  reviewPage,
  signPage,
  startPage,
  stepPage,
  unknownPage,
} from './pages/respondent.pages';
import { signerToken, visitorToken } from './respondent.cookies';
import type { ContactQuery } from './respondent.schemas';
import { type Respondent, respondentLanguage } from './respondent.service';
import { needsVisitor, type OpenAction, type RespondentView } from './respondent.view';

// The plumbing every contact page shares: who is asking, the gate for unknown and gone links, the
// page's context, and which page an open action shows.

/**
 * What a contact page's handler was given and hands on: the request, its parsed query (`step`, `lang`,
 * `saved`), the response and its script nonce.
 */
export interface ContactPage {
  req: Request;
  res: Response;
  query: ContactQuery;
  nonce: string;
}

/** What the contact's router shares with the questionnaire and signing routes. */
export interface PageKit {
  respondentOf(req: Request): Respondent;
  gate(req: Request, res: Response, view: RespondentView): Promise<Page | null>;
  contextOf(page: ContactPage, view: OpenAction): PageContext;
  expired(): Page;
  secureCookies: boolean;
  /** The questionnaire's pages (a multisigning action's first signer answers it first). */
  questionnairePage(query: ContactQuery, ctx: PageContext, view: OpenAction): Page;
}

/** What the page kit needs. */
export interface PageKitDeps {
  secureCookies: boolean;
  /** The contact pages' CSRF guard (checked by the platform on every form post; tokens made here). */
  csrf: CsrfGuard;
  /** Unknown codes per address (30 per 10 minutes by default), counted in the shared store. */
  wrongCodes: SharedCounter;
}

/** A 429 page, with the seconds to wait in `Retry-After`. */
export const tooMany = (res: Response, wait: number, text: string): Page => {
  res.setHeader('Retry-After', String(wait));
  return messagePage('en', 429, 'Too many attempts', `${text} Try again in ${wait} s.`);
};

/** The page for an open action: thank-you, start (campaign), quicksign notice, review or a step. */
export const pageOf = (query: ContactQuery, ctx: PageContext, view: OpenAction): Page => {
  if (view.done) return donePage(view, ctx);
  if (needsVisitor(view)) return startPage(view, ctx);
  if (view.steps.length === 0) return signPage(view, ctx);
  if (query.step === 'review') return reviewPage(view, ctx);
  const index = Math.min(Math.max(Number(query.step ?? 0) || 0, 0), view.steps.length - 1);
  return stepPage(view, ctx, view.steps[index]!, {
    notice: query.saved === '1' ? respondentTexts[ctx.lang].saved : undefined,
  });
};

/** The contact pages' kit over `deps`. */
export function pageKit(deps: PageKitDeps): PageKit {
  const { wrongCodes } = deps;
  const respondentOf = (req: Request): Respondent => ({
    visitorToken: visitorToken(req),
    signerToken: signerToken(req),
    client: {
      ip: clientAddress(req),
      userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
    },
  });
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
  const contextOf = ({ req, res, query, nonce }: ContactPage, view: OpenAction): PageContext => ({
    // A signer's pages stay on their own link.
    code: view.signer?.code ?? view.action.code,
    lang: respondentLanguage(query.lang, view),
    csrf: deps.csrf.token(req, res),
    nonce,
  });
  return {
    respondentOf,
    gate,
    contextOf,
    expired,
    secureCookies: deps.secureCookies,
    questionnairePage: (query, ctx, view) => pageOf(query, ctx, view),
  };
}
