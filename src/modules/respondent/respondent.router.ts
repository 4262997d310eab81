import { addressKey, type SharedCounter } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import { startVisitor, visitorFields } from './campaign.service';
import { type PageKitDeps, pageKit, pageOf, tooMany } from './page-kit';
import { errorPage, startPage, unknownPage } from './pages/respondent.pages';
import { questionnaireRoutes } from './questionnaire.router';
import { setVisitorCookie } from './respondent.cookies';
import { VisitorForm } from './respondent.forms';
import { contactQuery, codeParams as params, tags } from './respondent.schemas';
import { type SigningRouteDeps, signerPage } from './signer-page';
import { viewForSigning } from './signing';
import { signingRoutes } from './signing.router';

export interface RespondentRouteDeps extends SigningRouteDeps, PageKitDeps {
  /** New campaign visitors per address (20 per 10 minutes by default). */
  newVisitors: SharedCounter;
}

/**
 * The contact's pages behind /action/<code>, in this order: the page, a campaign's start, the
 * questionnaire's form posts, then the signer's.
 */
export function respondentRoutes(routes: Routes, deps: RespondentRouteDeps): void {
  const { newVisitors } = deps;
  const kit = pageKit(deps);

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
      csrfFailed: kit.expired,
      statuses: {
        200: 'The page',
        404: 'Unknown code',
        410: 'The action was withdrawn or has expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async (page) => {
      const { params: p, query, req, res } = page;
      const open = req.method === 'GET';
      const hit = await viewForSigning(deps, p.code, kit.respondentOf(req), open);
      const view = hit.view;
      const stop = await kit.gate(req, res, view);
      if (stop || view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = kit.contextOf(page, view);
      if (hit.facts && view.signer) return signerPage(deps, kit, page, ctx, view, hit.facts);
      return pageOf(query, ctx, view);
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
      form: VisitorForm,
      documentForm: false,
      errorPage,
      csrfFailed: kit.expired,
      statuses: {
        303: 'Started: go to the first page',
        400: 'A field is missing or invalid',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes or new visitors from this address',
      },
    },
    async (page) => {
      const { params: p, form: details, req, res } = page;
      const wait = await newVisitors.blocked(addressKey(req));
      if (wait > 0) return tooMany(res, wait, 'Too many new answers from your address.');
      const result = await startVisitor(deps, p.code, details);
      const stop = await kit.gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const view = result.view;
      const ctx = kit.contextOf(page, view);
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

  questionnaireRoutes(routes, deps, kit);
  signingRoutes(routes, deps, kit);
}
