import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  browserLanguage,
  noOrganisationPage,
  type SsoButton,
  safeNext,
  signInPage,
  ssoChoicePage,
  staffAccountPage,
  staffHome,
} from '../accounts';
import { organisationSignIn, providersForEmail, type SsoSignInDeps } from './signin.service';
import { EmailForm, OrgQuery } from './sso.schemas';

const OrgParams = z.object({ organisationId: idParam('organisationId') });

/** The link of a provider's sign-in button, with the page's CSRF token (another site cannot start it). */
function startHref(
  csrf: string,
  organisationId: string,
  providerId: string,
  next?: string,
  email?: string,
): string {
  const q = new URLSearchParams({ organisation: organisationId, provider: providerId, _csrf: csrf });
  if (next) q.set('next', next);
  if (email) q.set('email', email);
  return `/signin/sso/start?${q}`;
}

/** The sign-in buttons: those an e-mail address gets (e-mail first), and an organisation's own page. */
export function ssoButtonRoutes(rootRoutes: Routes, deps: SsoSignInDeps): void {
  rootRoutes.page(
    {
      ...staffAccountPage,
      method: 'post',
      path: '/signin/sso',
      rateLimit: 'signin',
      summary: 'Single sign-on, e-mail first: the sign-in buttons for an address (form post)',
      description:
        'Fields: `_csrf`, `email`, `next`. Answers the buttons of the enabled sign-in providers of each organisation where the address has an active staff account, and of each organisation with an enabled provider that creates users of the address’s domain just in time — whether or not the address has an account there, so on such a domain the answer lists no accounts (left out only for an address with an account in another organisation: one organisation’s domain never puts its buttons before another’s staff). None → the sign-in page again, saying so. Elsewhere the answer shows which organisations use single sign-on for an address that has an account there (as most e-mail-first sign-ins do); it never tells whether a password is set.',
      form: EmailForm,
      statuses: {
        200: 'The buttons, or the sign-in page saying there are none',
        400: 'Not an e-mail address',
      },
    },
    async ({ form, csrf }) => {
      const lang = browserLanguage();
      const token = csrf();
      const email = form.email.trim();
      const next = safeNext(form.next);
      if (!z.email().safeParse(email).success) {
        return {
          status: 400,
          html: signInPage(lang, { csrf: token, email, next, error: { problem: 'sso-email' } }),
        };
      }
      const found = await providersForEmail(deps, email);
      if (found.length === 0) {
        return {
          status: 200,
          html: signInPage(lang, { csrf: token, email, next, error: { problem: 'no-sso' } }),
        };
      }
      const byOrg = new Map<string, { organisation: string; buttons: SsoButton[] }>();
      for (const p of found) {
        const entry = byOrg.get(p.organisation_id) ?? { organisation: p.organisation_name, buttons: [] };
        entry.buttons.push({
          href: startHref(token, p.organisation_id, p.provider_id, next, email),
          provider: p.provider_name,
        });
        byOrg.set(p.organisation_id, entry);
      }
      return { status: 200, html: ssoChoicePage(lang, { email, choices: [...byOrg.values()] }) };
    },
  );

  rootRoutes.page(
    {
      ...staffAccountPage,
      path: '/signin/org/{organisationId}',
      summary: 'An organisation’s own sign-in address: its single sign-on buttons and the password form',
      description:
        'Give staff this address (a bookmark, the intranet): the buttons of the organisation’s enabled sign-in providers, then the password form. Query: `next` (a deep link).',
      params: OrgParams,
      query: OrgQuery,
      statuses: { 200: 'The page', 303: 'Already signed in', 404: 'No such organisation' },
    },
    async ({ params, query, req, csrf }) => {
      const next = safeNext(query.next);
      if (req.session?.staff) return { redirect: next ?? staffHome };
      const lang = browserLanguage();
      const org = await organisationSignIn(deps, params.organisationId);
      if (!org) return { status: 404, html: noOrganisationPage(lang) };
      const token = csrf();
      return {
        status: 200,
        html: signInPage(lang, {
          csrf: token,
          next,
          organisation: {
            id: params.organisationId,
            name: org.name,
            passwordSignIn: org.passwordSignIn,
            buttons: org.providers.map((p) => ({
              href: startHref(token, params.organisationId, p.id, next),
              provider: p.name,
            })),
          },
        }),
      };
    },
  );
}
