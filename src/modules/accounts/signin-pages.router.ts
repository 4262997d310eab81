import type { Request } from 'express';
import { staffLanguage } from '../../i18n/staff';
import type { SignInNotice } from '../../i18n/staff-signin';
import { clientAddress } from '../../platform/http/address';
import { addressKey } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import type { Clock } from '../../platform/kernel/clock';
import { requestLanguages } from '../../platform/kernel/context';
import { beginStaffSession, endStaffSession } from '../../platform/web/sessions';
import { staffErrorPage } from '../../platform/web/staff-layout';
import { SignInForm, SignInQuery } from './accounts.schemas';
import { type AccountsDeps, signIn } from './accounts.service';
import { deviceCookie, rememberBrowser } from './devices';
import { type SignInView, signInPage } from './pages/account.pages';
import { DEVICE_DISTRUST_AFTER, FREE_FAILURES, MAX_WAIT_MS } from './throttle';

/** What the staff account pages need: the use cases' dependencies and how cookies are served. */
export type AccountPagesDeps = AccountsDeps & {
  /** Served over HTTPS: the device cookie is `__Host-` prefixed and Secure. */
  secureCookies: boolean;
};

/** The language of the pages before sign-in: the browser's (nobody is signed in to have chosen one). */
export const browserLanguage = () => staffLanguage(null, requestLanguages());

/**
 * What every staff sign-in page declares (password and single sign-on alike): its OpenAPI tag, its
 * audience and its error page (a stale form gets the error page's own "form expired", in the browser's
 * language).
 */
export const staffAccountPage = {
  tags: ['Staff sign-in (pages)'],
  audience: 'staff' as const,
  errorPage: staffErrorPage,
};

/** Where a signed-in browser goes when no `next` says otherwise: the actions. */
export const staffHome = '/staff';

/** Where the browser goes after signing in: only a path of this site (never `//host` or a URL). */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length > 2000) return undefined;
  return /^\/(?![/\\])[^\s\\]*$/.test(next) ? next : undefined;
}

/** Starts the staff session of a user who has just proved who they are (on the app clock). */
export function startStaffSession(
  deps: { clock: Clock },
  req: Request,
  who: { organisationId: string; userId: string },
) {
  const now = deps.clock.now().getTime();
  return beginStaffSession(req, {
    organisationId: who.organisationId,
    userId: who.userId,
    signedInAt: now,
    seenAt: now,
  });
}

/** The codes the platform puts in `ended` (why the last session ended) that the page tells; others say nothing. */
const endedNotices: readonly SignInNotice[] = [
  'timeout',
  'deactivated',
  'password',
  'deleted',
  'revoked',
  'access',
  'sso-only',
];

/** Password sign-in and sign-out: the sign-in page, its form post, the sign-out form post. */
export function signInPageRoutes(routes: Routes, deps: AccountPagesDeps): void {
  routes.page(
    {
      ...staffAccountPage,
      path: '/signin',
      summary: 'Staff sign-in page',
      description:
        'Query: `next` (a path of this site to return to: a deep link), `ended` (why the last session ended), `signedOut`. A browser already signed in goes straight on.',
      query: SignInQuery,
      statuses: { 200: 'The sign-in form', 303: 'Already signed in: on to `next` or the actions' },
    },
    async ({ query, req, csrf }) => {
      const next = safeNext(query.next);
      if (req.session?.staff) return { redirect: next ?? staffHome };
      const notice = query.signedOut ? 'signed-out' : endedNotices.find((code) => code === query.ended);
      return { status: 200, html: signInPage(browserLanguage(), { csrf: csrf(), next, notice }) };
    },
  );

  routes.page(
    {
      ...staffAccountPage,
      method: 'post',
      path: '/signin',
      rateLimit: 'signin',
      summary: 'Sign in with e-mail and password (form post)',
      description: `Fields: \`_csrf\`, \`email\`, \`password\`, \`organisationId\` (when the e-mail has accounts in several organisations), \`next\`. Success starts a server-side session (cookie \`adk_staff\`, HttpOnly, SameSite=Lax; \`__Host-adk_staff\` and Secure over HTTPS) and goes to \`next\`. Success also remembers this browser for the account (device cookie \`adk_device\`, \`__Host-adk_device\` over HTTPS: HttpOnly, SameSite=Strict, a year; at most 5 accounts). Wrong e-mail or password → 401 with the form again, the same answer for an unknown e-mail and for the right password of an account whose organisation has password sign-in off (administrators excepted). Failures slow later attempts down, never lock: after ${FREE_FAILURES.account} failures of an account or ${FREE_FAILURES.address} from an address in 15 minutes, each attempt must wait 1, 2, 4 … seconds after the last failure, at most ${MAX_WAIT_MS / 1000}; one that comes sooner → 429 with Retry-After, its password unchecked. A browser remembered for the account counts only its own failures (${FREE_FAILURES.device} free; it is no longer trusted after ${DEVICE_DISTRUST_AFTER} in 15 minutes).`,
      form: SignInForm,
      statuses: {
        303: 'Signed in',
        401: 'Wrong e-mail or password, or a deactivated account',
        409: 'The e-mail has accounts in several organisations: choose one',
        429: 'Too soon after too many failed attempts: try again after `Retry-After` seconds (at most 60)',
      },
    },
    async ({ form, req, res, csrf }) => {
      const next = safeNext(form.next);
      const outcome = await signIn(deps, {
        email: form.email,
        password: form.password,
        organisationId: form.organisationId,
        address: addressKey(req),
        clientAddress: clientAddress(req) ?? 'unknown',
        device: deviceCookie(req, deps.secureCookies),
      });
      const again = (status: number, extra: Omit<SignInView, 'csrf' | 'email' | 'next'>) => ({
        status,
        html: signInPage(browserLanguage(), { csrf: csrf(), email: form.email, next, ...extra }),
      });
      switch (outcome.kind) {
        case 'signed-in': {
          if (outcome.breakGlass) {
            req.log?.warn(
              { organisationId: outcome.organisationId, userId: outcome.userId },
              'break-glass password sign-in of an administrator while password sign-in is off',
            );
          }
          await startStaffSession(deps, req, outcome);
          rememberBrowser(deps, req, res, form.email);
          return { redirect: next ?? staffHome };
        }
        case 'choose':
          return again(409, { organisations: outcome.organisations });
        case 'limited':
          res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
          return again(429, { error: { problem: 'limited', seconds: outcome.retryAfterSeconds } });
        case 'refused':
          return again(401, { error: { problem: outcome.refusal } });
      }
    },
  );

  routes.page(
    {
      ...staffAccountPage,
      method: 'post',
      path: '/signout',
      summary: 'Sign out (form post)',
      description: 'Fields: `_csrf`. Ends the session (its row is deleted) and goes to the sign-in page.',
      statuses: { 303: 'Signed out' },
    },
    async ({ req }) => {
      await endStaffSession(req);
      return { redirect: '/signin?signedOut=1' };
    },
  );
}
