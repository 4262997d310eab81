import type { Request } from 'express';
import { clientAddress } from '../../platform/http/address';
import { addressKey } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import { credential } from '../../platform/redaction';
import { idParam, timestamp } from '../../platform/schemas';
import { beginStaffSession, endStaffSession } from '../../platform/web/sessions';
import { z } from '../../platform/zod';
import {
  forgotPasswordPage,
  linkProblemPage,
  setPasswordPage,
  signInPage,
} from '../../web/staff-account-pages';
import { staffErrorPage } from '../../web/staff-layout';
import {
  type AccountsDeps,
  forgotPassword,
  passwordLinkState,
  sendPasswordLink,
  setPasswordByAdministrator,
  setPasswordWithLink,
  signIn,
} from './accounts.service';
import { deviceCookie, rememberBrowser } from './devices';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';
import { DEVICE_DISTRUST_AFTER, FREE_FAILURES, MAX_WAIT_MS } from './throttle';

const tags = ['Staff sign-in (pages)'];

/** Where the browser goes after signing in: only a path of this site (never `//host` or a URL). */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length > 2000) return undefined;
  return /^\/(?![/\\])[^\s\\]*$/.test(next) ? next : undefined;
}

const text = (max: number) => z.string().max(max);
const SignInQuery = z.object({
  next: text(2000).optional(),
  ended: text(40).optional(),
  signedOut: z.literal('1').optional(),
});
const SignInForm = z.object({
  _csrf: text(300),
  email: text(1000),
  password: text(PASSWORD_MAX * 4),
  organisationId: text(100).optional(),
  next: text(2000).optional(),
});
const ForgotForm = z.object({ _csrf: text(300), email: text(1000) });
const TokenParams = z.object({
  token: credential(
    z
      .string()
      .max(200)
      .meta({
        param: { name: 'token', in: 'path' },
        description: 'The password link’s token: a credential, never logged',
      }),
    'password link',
  ),
});
const PasswordForm = z.object({
  _csrf: text(300),
  username: text(1000).optional(),
  password: text(PASSWORD_MAX * 4),
  confirm: text(PASSWORD_MAX * 4),
});

/** Why the last session ended, by the code the platform puts in `ended` (unknown codes say nothing). */
const endedNotices: Record<string, string> = {
  timeout: 'Your session has ended. Sign in again to go on.',
  deactivated: 'Your account has been deactivated. Ask an administrator of your organisation.',
  password: 'Your password was changed. Sign in with the new one.',
  deleted: 'Your account no longer exists.',
  revoked: 'You were signed out on every device. Sign in again to go on.',
  access: 'An administrator changed what you may do here. Sign in again to go on.',
  'sso-only':
    'Your password is saved. Your organisation signs in with work accounts: choose “Continue with single sign-on”.',
};

/** The least time a forgot-password answer takes, so that it does not tell which addresses exist. */
const FORGOT_FLOOR_MS = 250;

const home = '/staff';

export function accountRoutes(
  routes: Routes,
  api: Routes,
  deps: AccountsDeps & {
    /** Served over HTTPS: the device cookie is `__Host-` prefixed and Secure. */
    secureCookies: boolean;
  },
): void {
  const common = { tags, audience: 'staff' as const, errorPage: staffErrorPage };
  const startSession = (req: Request, who: { organisationId: string; userId: string }) => {
    const now = deps.clock.now().getTime();
    return beginStaffSession(req, {
      organisationId: who.organisationId,
      userId: who.userId,
      signedInAt: now,
      seenAt: now,
    });
  };

  routes.page(
    {
      ...common,
      path: '/signin',
      summary: 'Staff sign-in page',
      description:
        'Query: `next` (a path of this site to return to: a deep link), `ended` (why the last session ended), `signedOut`. A browser already signed in goes straight on.',
      query: SignInQuery,
      statuses: { 200: 'The sign-in form', 303: 'Already signed in: on to `next` or the actions' },
    },
    async ({ query, req, csrf }) => {
      const next = safeNext(query.next);
      if (req.session?.staff) return { redirect: next ?? home };
      const notice = query.signedOut
        ? 'You are signed out.'
        : query.ended && Object.hasOwn(endedNotices, query.ended)
          ? endedNotices[query.ended]
          : undefined;
      return { status: 200, html: signInPage({ csrf: csrf(), next, notice }) };
    },
  );

  routes.page(
    {
      ...common,
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
      const again = (status: number, extra: Parameters<typeof signInPage>[0]) => ({
        status,
        html: signInPage(extra),
      });
      switch (outcome.kind) {
        case 'signed-in': {
          if (outcome.breakGlass) {
            req.log?.warn(
              { organisationId: outcome.organisationId, userId: outcome.userId },
              'break-glass password sign-in of an administrator while password sign-in is off',
            );
          }
          await startSession(req, outcome);
          rememberBrowser(deps, req, res, form.email);
          return { redirect: next ?? home };
        }
        case 'choose':
          return again(409, { csrf: csrf(), email: form.email, next, organisations: outcome.organisations });
        case 'limited':
          res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
          return again(429, { csrf: csrf(), email: form.email, next, error: outcome.message });
        case 'refused':
          return again(401, { csrf: csrf(), email: form.email, next, error: outcome.message });
      }
    },
  );

  routes.page(
    {
      ...common,
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

  routes.page(
    {
      ...common,
      path: '/password/forgot',
      summary: 'Forgot-password page: asks for the e-mail address',
      statuses: { 200: 'The form' },
    },
    async ({ csrf }) => ({ status: 200, html: forgotPasswordPage({ csrf: csrf() }) }),
  );

  routes.page(
    {
      ...common,
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
      const email = form.email.trim();
      if (!z.email().safeParse(email).success) {
        return {
          status: 400,
          html: forgotPasswordPage({
            csrf: csrf(),
            email,
            error: 'Give an e-mail address, like name@example.com.',
          }),
        };
      }
      // The answer takes the same time whether or not the address has an account (a link is made and
      // queued only for one that has): at least FORGOT_FLOOR_MS, measured on the wall clock.
      const started = performance.now();
      await forgotPassword(deps, email);
      const rest = FORGOT_FLOOR_MS - (performance.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      return { status: 200, html: forgotPasswordPage({ csrf: csrf(), sent: true, email }) };
    },
  );

  routes.page(
    {
      ...common,
      path: '/password/{token}',
      summary: 'Choose a password through an e-mailed link',
      params: TokenParams,
      statuses: { 200: 'The form', 404: 'Unknown link', 410: 'The link was used or has expired' },
    },
    async ({ params, csrf }) => {
      const state = await passwordLinkState(deps, params.token);
      if (state.state !== 'ok') return linkProblemPage(state.state);
      return {
        status: 200,
        html: setPasswordPage({ csrf: csrf(), token: params.token, name: state.name, email: state.email }),
      };
    },
  );

  routes.page(
    {
      ...common,
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
      const state = await passwordLinkState(deps, params.token);
      if (state.state !== 'ok') return linkProblemPage(state.state);
      const retry = (error: string) => ({
        status: 400,
        html: setPasswordPage({
          csrf: csrf(),
          token: params.token,
          name: state.name,
          email: state.email,
          error,
        }),
      });
      if (form.password !== form.confirm) return retry('The two passwords are not the same.');
      const result = await setPasswordWithLink(deps, params.token, form.password);
      if (!result.ok) {
        if (result.state && result.state !== 'ok') return linkProblemPage(result.state);
        return retry(result.problem);
      }
      if (!result.signIn) return { redirect: '/signin?ended=sso-only' };
      if (result.breakGlass) {
        req.log?.warn(
          { organisationId: result.organisationId, userId: result.userId },
          'break-glass sign-in of an administrator through a password link while password sign-in is off',
        );
      }
      await startSession(req, result);
      rememberBrowser(deps, req, res, state.email);
      return { redirect: home };
    },
  );

  // The administrators' side, through the API.
  const adminTags = ['Admin: users'];
  const UserParams = z.object({ userId: idParam('userId') });
  api.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/password-link',
      summary: 'E-mail a staff user a link to set their password',
      description:
        'A single-use link, valid `PASSWORD_LINK_HOURS` (default 24): an invitation for a user without a password, a reset otherwise. Earlier unused links of the user stop working. 409 for a service user or a deactivated user.',
      tags: adminTags,
      permission: 'admin',
      params: UserParams,
      optionalBody: true,
      status: 202,
      response: z.object({ success: z.literal(true), expiresAt: timestamp }).meta({ id: 'PasswordLinkSent' }),
      errors: [409],
    },
    ({ ctx, params }) => sendPasswordLink(deps, ctx, params.userId),
  );
  api.add(
    {
      method: 'put',
      path: '/admin/users/{userId}/password',
      summary: 'Set a staff user’s password',
      description:
        'At least 12 and at most 256 characters, not the e-mail address. The user’s browser sessions end on their next request; their API keys keep working. Prefer the password link: it lets the user choose.',
      tags: adminTags,
      permission: 'admin',
      params: UserParams,
      body: z
        .strictObject({
          password: z
            .string()
            .min(1)
            .max(PASSWORD_MAX * 4)
            // Counted in characters (code points) by the service, as JSON Schema counts them.
            .meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
        })
        .meta({ id: 'SetPassword' }),
      response: z.object({ success: z.literal(true) }).meta({ id: 'PasswordSet' }),
      errors: [409],
    },
    ({ ctx, params, body }) => setPasswordByAdministrator(deps, ctx, params.userId, body.password),
  );
}
