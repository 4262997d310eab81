import type { Routes } from '../../platform/http/routes';
import type { PageKit } from './page-kit';
import { errorPage, RESULT, unknownPage } from './pages/respondent.pages';
import { declinePage } from './pages/signing.pages';
import { DeclineForm, SignForm } from './respondent.forms';
import { contactQuery, codeParams as params, tags } from './respondent.schemas';
import { decline, sign } from './signature';
import { afterSigningPost, type SigningRouteDeps } from './signer-page';
import { signingTitleOf } from './signing';
import { signingCodeRoutes } from './signing-codes.router';
import { signingDocumentRoutes } from './signing-documents.router';

/** A signer's pages after the link itself, in this order: the one-time code, sign or decline, documents. */
export function signingRoutes(routes: Routes, deps: SigningRouteDeps, kit: PageKit): void {
  signingCodeRoutes(routes, deps, kit);

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign',
      summary: 'Signing: sign (form post)',
      description:
        'Fields: `_csrf`, `mark` (`typed` or `drawn`), `typedName` (typed: up to 100 characters), `drawing` (drawn: a PNG data URL of at most 140,000 bytes, 10–4000 pixels a side), `consent` (`yes`: the signer agrees to the text naming the document). Needs the browser that confirmed the code. Records the signature with its evidence (name, e-mail, phone, address, user agent, consent) and the event `signature.signed`; when every signer has signed, the sealed document is made by a background job and the action completes with it.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      form: SignForm,
      documentForm: false,
      errorPage,
      statuses: {
        303: 'Signed: back to the page, which says so',
        400: 'No signature, no consent, or the code was not confirmed in this browser',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async (page) => {
      const { params: p, form, query, req } = page;
      const result = await sign(deps, p.code, kit.respondentOf(req), form, query.lang);
      // What the signer sent comes back on a refused form: a drawing that could be read, the consent.
      const drawing = form.mark === 'drawn' && result.problem !== 'bad-drawing' ? form.drawing : '';
      return afterSigningPost(deps, kit, page, result, {
        typedName: form.typedName,
        ...(drawing ? { drawing } : {}),
        consented: form.consent,
      });
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/decline',
      summary: 'Signing: decline to sign, with a reason (form post)',
      description:
        'Fields: `_csrf`, `reason` (1–1000 characters). No code is needed (the link is the signer’s own) unless the organisation requires one (`requireCodeToDecline` of its brand): then only a browser that confirmed the signer’s one-time code may decline (else 400, the page saying to ask for a code). The decline is recorded with this browser’s address and user agent, and whether it had confirmed a code. The signer is declined and the action closes as `declined` for every signer (events `signature.declined`, then `sessionrequest.declined`); pending messages are cancelled and the link then answers 410.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      form: DeclineForm,
      documentForm: false,
      errorPage,
      statuses: {
        303: 'Declined',
        400: 'No reason, one that is too long, or the organisation requires a confirmed code first',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async (page) => {
      const { params: p, form, req, res } = page;
      const { reason } = form;
      const result = await decline(deps, p.code, kit.respondentOf(req), reason);
      const stop = await kit.gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = kit.contextOf(page, result.view);
      if (result.problem && result.problem !== 'closed')
        return declinePage(result.view, ctx, signingTitleOf(result.view), {
          problem: result.problem,
          reason,
          needsCode: result.problem === 'decline-needs-code',
        });
      return { redirect: `/action/${ctx.code}?lang=${ctx.lang}#${RESULT}` };
    },
  );

  signingDocumentRoutes(routes, deps, kit);
}
