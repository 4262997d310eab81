import type { PasswordProblem } from '../../i18n/staff-password';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { ForgotForm, PasswordForm, TokenParams } from './accounts.schemas';
import { forgotPassword, passwordLinkState, setPasswordWithLink } from './accounts.service';
import { rememberBrowser } from './devices';
import { forgotPasswordPage, linkProblemPage, setPasswordPage } from './pages/account.pages';
import {
  type AccountPagesDeps,
  browserLanguage,
  staffAccountPage,
  staffHome,
  startStaffSession,
} from './signin-pages.router';

/** The least time a forgot-password answer takes, so that it does not tell which addresses exist. */
const FORGOT_FLOOR_MS = 250;

/** A password through an e-mailed link: ask for the link (forgot password), then choose the password. */
export function passwordPageRoutes(routes: Routes, deps: AccountPagesDeps): void {
  routes.page(
    {
      ...staffAccountPage,
      path: '/password/forgot',
      summary: 'Forgot-password page: asks for the e-mail address',
      statuses: { 200: 'The form' },
    },
    async ({ csrf }) => ({ status: 200, html: forgotPasswordPage(browserLanguage(), { csrf: csrf() }) }),
  );

  routes.page(
    {
      ...staffAccountPage,
      method: 'post',
      path: '/password/forgot',
      rateLimit: 'signin',
      summary: 'Send a password reset link (form post)',
      description:
        'Fields: `_csrf`, `email`. Every active staff account with this e-mail gets a single-use link (valid `PASSWORD_LINK_HOURS`, default 24) by e-mail; the page says the same whether or not an account exists. At most one link a minute per account.',
      form: ForgotForm,
      statuses: { 200: 'The link is on its way (if the account exists)', 400: 'Not an e-mail address' },
    },
    async ({ form, csrf }) => {
      const lang = browserLanguage();
      const email = form.email.trim();
      if (!z.email().safeParse(email).success) {
        return { status: 400, html: forgotPasswordPage(lang, { csrf: csrf(), email, problem: 'email' }) };
      }
      // The answer takes the same time whether or not the address has an account (a link is made and
      // queued only for one that has): at least FORGOT_FLOOR_MS, measured on the wall clock.
      const started = performance.now();
      await forgotPassword(deps, email);
      const rest = FORGOT_FLOOR_MS - (performance.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      return { status: 200, html: forgotPasswordPage(lang, { csrf: csrf(), sentTo: email }) };
    },
  );

  routes.page(
    {
      ...staffAccountPage,
      path: '/password/{token}',
      summary: 'Choose a password through an e-mailed link',
      params: TokenParams,
      statuses: { 200: 'The form', 404: 'Unknown link', 410: 'The link was used or has expired' },
    },
    async ({ params, csrf }) => {
      const lang = browserLanguage();
      const state = await passwordLinkState(deps, params.token);
      if (state.state !== 'ok') return linkProblemPage(lang, state.state);
      return {
        status: 200,
        html: setPasswordPage(lang, {
          csrf: csrf(),
          token: params.token,
          name: state.name,
          email: state.email,
        }),
      };
    },
  );

  routes.page(
    {
      ...staffAccountPage,
      method: 'post',
      path: '/password/{token}',
      rateLimit: 'signin',
      summary: 'Set the password through the link (form post), then signed in',
      description:
        'Fields: `_csrf`, `password`, `confirm`. The link is spent with the change (a second use → 410); the user’s other browser sessions end; this browser is signed in (and remembered for the account: the device cookie of `POST /signin`).',
      params: TokenParams,
      form: PasswordForm,
      statuses: {
        303: 'Saved and signed in',
        400: 'The password is refused (named why)',
        404: 'Unknown link',
        410: 'The link was used or has expired',
      },
    },
    async ({ params, form, req, res, csrf }) => {
      const lang = browserLanguage();
      const state = await passwordLinkState(deps, params.token);
      if (state.state !== 'ok') return linkProblemPage(lang, state.state);
      const retry = (problem: PasswordProblem) => ({
        status: 400,
        html: setPasswordPage(lang, {
          csrf: csrf(),
          token: params.token,
          name: state.name,
          email: state.email,
          problem,
        }),
      });
      if (form.password !== form.confirm) return retry('not-same');
      const result = await setPasswordWithLink(deps, params.token, form.password);
      if (!result.ok) return 'state' in result ? linkProblemPage(lang, result.state) : retry(result.rule);
      if (!result.signIn) return { redirect: '/signin?ended=sso-only' };
      if (result.breakGlass) {
        req.log?.warn(
          { organisationId: result.organisationId, userId: result.userId },
          'break-glass sign-in of an administrator through a password link while password sign-in is off',
        );
      }
      await startStaffSession(deps, req, result);
      rememberBrowser(deps, req, res, state.email);
      return { redirect: staffHome };
    },
  );
}
