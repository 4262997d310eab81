import type { Request } from 'express';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/schemas';
import { beginStaffSession } from '../../platform/web/sessions';
import { z } from '../../platform/zod';
import { type SsoButton, signInPage, ssoChoicePage, ssoProblemPage } from '../../web/staff-account-pages';
import { staffErrorPage } from '../../web/staff-layout';
import { pruneStaffSessions, rememberBrowser, safeNext } from '../accounts';
import {
  finishSignIn,
  organisationSignIn,
  providersForEmail,
  type SsoSignInDeps,
  startSignIn,
} from './signin.service';
import type { PendingSignIn, SignInBrowser } from './signin.strategy';

declare module 'express-session' {
  interface SessionData {
    /** Single sign-ons started in this browser, by their `state`. */
    ssoPending?: Record<string, PendingSignIn>;
  }
}

/** The browser's side of a sign-in, for the use cases: the query and the sign-ins pending in its session. */
const browserOf = (req: Request): SignInBrowser => ({
  query: req.query,
  pendingSignIns: () => req.session?.ssoPending ?? {},
  setPendingSignIns: (all) => {
    req.session.ssoPending = all;
  },
  save: () => new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve()))),
});

const tags = ['Staff sign-in (pages)'];
const text = (max: number) => z.string().max(max);

const EmailForm = z.object({
  _csrf: text(300),
  email: text(1000),
  password: text(2000).optional(),
  next: text(2000).optional(),
});
const StartQuery = z.object({
  organisation: text(100).meta({ description: 'The organisation’s id' }),
  provider: text(100).meta({ description: 'The sign-in provider’s id' }),
  next: text(2000).optional().meta({ description: 'A path of this site to land on once signed in' }),
  email: text(320).optional().meta({ description: 'Passed to the provider as login_hint' }),
});
const CallbackQuery = z.object({
  state: text(200).optional(),
  code: text(4000).optional(),
  error: text(200).optional(),
  error_description: text(2000).optional(),
});
const OrgParams = z.object({ organisationId: idParam('organisationId') });
const OrgQuery = z.object({ next: text(2000).optional() });

const home = '/staff';

/** The link of a provider's sign-in button, with the page's CSRF token (another site cannot start it). */
export function startHref(
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

const buttonLabel = (name: string) => `Sign in with ${name}`;

/** Staff single sign-on (spec 5.3): e-mail first, the organisation's buttons, the provider's callback. */
export function ssoSignInRoutes(rootRoutes: Routes, api: Routes, deps: SsoSignInDeps): void {
  const common = { tags, audience: 'staff' as const, errorPage: staffErrorPage };
  const problem = (status: number, message: string) => ({ status, html: ssoProblemPage(message) });
  const statusOf: Record<string, number> = { state: 400, provider: 502 };

  rootRoutes.page(
    {
      ...common,
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
      const token = csrf();
      const email = form.email.trim();
      const next = safeNext(form.next);
      if (!z.email().safeParse(email).success) {
        return {
          status: 400,
          html: signInPage({
            csrf: token,
            email,
            next,
            error: 'Give your e-mail address, like name@example.com, to find your organisation’s sign-in.',
          }),
        };
      }
      const found = await providersForEmail(deps, email);
      if (found.length === 0) {
        return {
          status: 200,
          html: signInPage({
            csrf: token,
            email,
            next,
            error: 'No single sign-on is set up for this address. Sign in with your password.',
          }),
        };
      }
      const byOrg = new Map<string, { organisation: string; buttons: SsoButton[] }>();
      for (const p of found) {
        const entry = byOrg.get(p.organisation_id) ?? { organisation: p.organisation_name, buttons: [] };
        entry.buttons.push({
          href: startHref(token, p.organisation_id, p.provider_id, next, email),
          label: buttonLabel(p.provider_name),
        });
        byOrg.set(p.organisation_id, entry);
      }
      return { status: 200, html: ssoChoicePage({ email, choices: [...byOrg.values()] }) };
    },
  );

  rootRoutes.page(
    {
      ...common,
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
      if (req.session?.staff) return { redirect: next ?? home };
      const org = await organisationSignIn(deps, params.organisationId);
      if (!org) return { status: 404, html: staffErrorPage(404, 'There is no such organisation.') };
      const token = csrf();
      return {
        status: 200,
        html: signInPage({
          csrf: token,
          next,
          organisation: {
            id: params.organisationId,
            name: org.name,
            passwordSignIn: org.passwordSignIn,
            buttons: org.providers.map((p) => ({
              href: startHref(token, params.organisationId, p.id, next),
              label: buttonLabel(p.name),
            })),
          },
        }),
      };
    },
  );

  rootRoutes.page(
    {
      ...common,
      path: '/signin/sso/start',
      rateLimit: 'signin',
      summary: 'Start single sign-on at a provider (the sign-in button’s link)',
      description:
        'Sends the browser to the provider’s authorization endpoint: authorization code with PKCE (S256), `nonce`, and a `state` bound to this browser’s session, the organisation and the provider, valid once for 10 minutes. The link carries the CSRF token of the page that showed it (`_csrf`): another site cannot start a sign-in in the browser. A browser already signed in goes on to `next`. A disabled or unknown provider → the sign-in problem page.',
      query: StartQuery,
      csrfOnGet: true,
      csrfFailed: () => ({
        status: 403,
        html: ssoProblemPage(
          'This sign-in button has expired. Go back to the sign-in page, reload it and try again.',
        ),
      }),
      statuses: {
        303: 'To the provider',
        403: 'The provider is disabled or unknown',
        502: 'The provider’s discovery document could not be read',
      },
    },
    async ({ query, req }) => {
      const next = safeNext(query.next);
      if (req.session?.staff) return { redirect: next ?? home };
      const outcome = await startSignIn(deps, browserOf(req), {
        organisationId: query.organisation,
        providerId: query.provider,
        next,
        loginHint: query.email && z.email().safeParse(query.email).success ? query.email : undefined,
      });
      if (outcome.kind === 'redirect') return { redirect: outcome.url };
      logRefusal(req, outcome);
      return problem(statusOf[outcome.reason] ?? 403, outcome.message);
    },
  );

  api.page(
    {
      ...common,
      path: '/auth/oauth/callback',
      rateLimit: 'signin',
      summary: 'Redirect address for staff single sign-on (register it at the provider)',
      description:
        'The provider sends the browser back here with `code` and `state`. The state must be the one this browser started (once, within 10 minutes); the code is exchanged with the PKCE verifier; the ID token’s signature (the provider’s published keys), issuer, audience, expiry and nonce are verified; the staff user is found by the provider’s subject once linked, else by the verified e-mail address, within the organisation the sign-in was started for. Signed in → `next` (the deep link the sign-in started from) or the actions, this browser remembered for the account (the device cookie of `POST /signin`). Refused (tampered or replayed state, disabled provider, unverified e-mail, another domain, no account, deactivated account, a token that fails verification) → a sign-in problem page that says why; nothing is created or linked.',
      query: CallbackQuery,
      statuses: {
        303: 'Signed in',
        400: 'The state is unknown, spent, expired or from another browser',
        403: 'Refused: the page says why',
        502: 'The provider did not answer as expected',
      },
    },
    async ({ req, res }) => {
      const outcome = await finishSignIn(deps, browserOf(req));
      if (outcome.kind === 'refused') {
        logRefusal(req, outcome);
        return problem(statusOf[outcome.reason] ?? 403, outcome.message);
      }
      const now = deps.clock.now().getTime();
      await pruneStaffSessions(deps, deps.clock.now());
      await beginStaffSession(req, {
        organisationId: outcome.organisationId,
        userId: outcome.userId,
        signedInAt: now,
        seenAt: now,
      });
      rememberBrowser(deps, req, res, outcome.email);
      req.log?.info(
        {
          sso: 'signed-in',
          organisationId: outcome.organisationId,
          userId: outcome.userId,
          created: outcome.created,
        },
        'single sign-on',
      );
      return { redirect: outcome.next ?? home };
    },
  );
}

function logRefusal(req: Request, outcome: { reason: string; detail?: string }) {
  req.log?.warn({ sso: outcome.reason, detail: outcome.detail }, 'single sign-on refused');
}
