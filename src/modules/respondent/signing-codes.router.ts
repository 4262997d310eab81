import type { Routes } from '../../platform/http/routes';
import type { PageKit } from './page-kit';
import { errorPage } from './pages/respondent.pages';
import { setSignerCookie } from './respondent.cookies';
import { CodeForm, CodeRequestForm } from './respondent.forms';
import { contactQuery, codeParams as params, tags } from './respondent.schemas';
import { afterSigningPost, type SigningRouteDeps } from './signer-page';
import { requestCode, verifyCode } from './signing-codes';

/** A signer's one-time code: sent by e-mail or SMS, then confirmed in this browser. */
export function signingCodeRoutes(routes: Routes, deps: SigningRouteDeps, kit: PageKit): void {
  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign/code',
      summary: 'Signing: send the signer a one-time code (form post)',
      description:
        'Fields: `_csrf`, `channel` (`email` or `sms`, among the contact’s addresses). The code is sent in the page’s language (`lang`). A new 6-digit code replaces any earlier one (and lifts a lock); it works once, for 10 minutes. At most 5 codes per signer per hour (400 with the reason). The code is stored as a keyed hash and sent by a background job.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      form: CodeRequestForm,
      documentForm: false,
      errorPage,
      statuses: {
        303: 'Sent: back to the signing page',
        400: 'No such channel, or too many codes',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async (page) => {
      const { params: p, form, query, req } = page;
      const result = await requestCode(deps, p.code, kit.respondentOf(req), form.channel, query.lang);
      return afterSigningPost(deps, kit, page, result);
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/sign/verify',
      summary: 'Signing: confirm the one-time code (form post)',
      description:
        'Fields: `_csrf`, `code` (6 digits; spaces ignored). A right code binds this browser to the signer for 30 minutes (HttpOnly cookie `adk_signer`, Path=/action/<code>) and is spent. A wrong one counts: after 5 the code is locked until a new one is asked for. An expired code is refused.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      form: CodeForm,
      documentForm: false,
      errorPage,
      statuses: {
        303: 'Confirmed: back to the signing page, now at the signature',
        400: 'Wrong, locked or expired code (the page says which, and how many tries are left)',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn, expired or declined',
      },
    },
    async (page) => {
      const { params: p, form, req, res } = page;
      const result = await verifyCode(deps, p.code, kit.respondentOf(req), form.code);
      if (result.browserToken && result.view.outcome === 'ok' && result.view.signer)
        setSignerCookie(res, result.view.signer.code, result.browserToken, kit.secureCookies);
      return afterSigningPost(deps, kit, page, result);
    },
  );
}
