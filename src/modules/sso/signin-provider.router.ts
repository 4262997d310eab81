import type { Request } from 'express';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { beginStaffSession } from '../../platform/web/sessions';
import {
  browserLanguage,
  pruneStaffSessions,
  rememberBrowser,
  safeNext,
  ssoProblemPage,
  staffAccountPage,
  staffHome,
} from '../accounts';
import type { Refused } from './signin.outcome';
import { finishSignIn, type SsoSignInDeps, startSignIn } from './signin.service';
import type { PendingSignIn, SignInBrowser } from './signin.strategy';
import { CallbackQuery, StartQuery } from './sso.schemas';

declare module 'express-session' {
  interface SessionData {
    /** Single sign-ons started in this browser, by their `state`. */
    ssoPending?: Record<string, PendingSignIn>;
  }
}

/** A refusal's status: a stale or foreign state is a bad request, a provider that failed a bad gateway. */
const statusOf: Partial<Record<Refused['reason'], number>> = { state: 400, provider: 502 };

/**
 * The browser's side of a sign-in, for the use cases: the page's parsed query and the sign-ins pending in
 * its session.
 */
const browserOf = (req: Request, query: SignInBrowser['query']): SignInBrowser => ({
  query,
  pendingSignIns: () => req.session?.ssoPending ?? {},
  setPendingSignIns: (all) => {
    req.session.ssoPending = all;
  },
  save: () => new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve()))),
});

/** The round trip to the provider: the button's link sends the browser there, the callback signs it in. */
export function ssoProviderRoundTripRoutes(rootRoutes: Routes, api: Routes, deps: SsoSignInDeps): void {
  const problem = (outcome: Refused) => ({
    status: statusOf[outcome.reason] ?? 403,
    html: ssoProblemPage(browserLanguage(), outcome),
  });

  rootRoutes.page(
    {
      ...staffAccountPage,
      path: '/signin/sso/start',
      rateLimit: 'signin',
      summary: 'Start single sign-on at a provider (the sign-in button’s link)',
      description:
        'Sends the browser to the provider’s authorization endpoint: authorization code with PKCE (S256), `nonce`, and a `state` bound to this browser’s session, the organisation and the provider, valid once for 10 minutes. The link carries the CSRF token of the page that showed it (`_csrf`): another site cannot start a sign-in in the browser. A browser already signed in goes on to `next`. A disabled or unknown provider → the sign-in problem page.',
      query: StartQuery,
      csrfOnGet: true,
      csrfFailed: () => ({
        status: 403,
        html: ssoProblemPage(browserLanguage(), { reason: 'button-expired' }),
      }),
      statuses: {
        303: 'To the provider',
        403: 'The provider is disabled or unknown',
        502: 'The provider’s discovery document could not be read',
      },
    },
    async ({ query, req }) => {
      const next = safeNext(query.next);
      if (req.session?.staff) return { redirect: next ?? staffHome };
      const outcome = await startSignIn(deps, browserOf(req, query), {
        organisationId: query.organisation,
        providerId: query.provider,
        next,
        loginHint: query.email && z.email().safeParse(query.email).success ? query.email : undefined,
      });
      if (outcome.kind === 'redirect') return { redirect: outcome.url };
      logRefusal(req, outcome);
      return problem(outcome);
    },
  );

  api.page(
    {
      ...staffAccountPage,
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
    async ({ query, req, res }) => {
      const outcome = await finishSignIn(deps, browserOf(req, query));
      if (outcome.kind === 'refused') {
        logRefusal(req, outcome);
        return problem(outcome);
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
      return { redirect: outcome.next ?? staffHome };
    },
  );
}

function logRefusal(req: Request, outcome: { reason: string; detail?: string }) {
  req.log?.warn({ sso: outcome.reason, detail: outcome.detail }, 'single sign-on refused');
}
