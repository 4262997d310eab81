import type { Response } from 'express';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { staffErrorPage } from '../../platform/web/staff-layout';
import {
  type AuthorizeDeps,
  answerConsent,
  CONSENT_SECONDS,
  checkAuthorization,
  rememberRequest,
  whoConsents,
} from './authorize.service';
import { consentPage } from './pages/consent.pages';

const param = (description: string) => z.string().max(2000).optional().meta({ description });
const AuthorizeQuery = z.object({
  response_type: param('code (the only one: no implicit grant)'),
  client_id: param('The client’s adc_… id'),
  redirect_uri: param('Exactly one of the client’s registered redirect URIs (optional when it has one)'),
  scope: param('Space-separated: read create update delete all; none → all the client may have'),
  state: param('Returned unchanged with the code or the error'),
  code_challenge: param('PKCE (RFC 7636): BASE64URL(SHA-256(verifier)); required for public clients'),
  code_challenge_method: param('S256 (plain is refused)'),
});
// Nothing of the authorization request itself: the POST acts on what the page showed, kept on the
// server under request_id. A form that names a client, scope or redirect URI is refused (400).
const ConsentForm = z
  .object({
    _csrf: z.string().max(300),
    request_id: z
      .string()
      .max(100)
      .meta({ description: 'The id of the authorization request the consent page showed (adq_…)' }),
    decision: z.enum(['allow', 'deny']),
  })
  .strict();

/**
 * Lets the consent page's form be followed by the redirect to the client: browsers apply the page's
 * form-action to the redirect after a form post, so the client's origin is allowed beside 'self'.
 */
function allowFormTarget(res: Response, redirectUri: string) {
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp !== 'string') return;
  const origin = new URL(redirectUri).origin;
  res.setHeader('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${origin}`));
}

/** The OAuth 2.0 authorization endpoint (RFC 6749 §4.1): staff sign-in, then the adviser's consent. */
export function authorizeRoutes(routes: Routes, deps: AuthorizeDeps): void {
  const common = {
    audience: 'staff' as const,
    errorPage: staffErrorPage,
    tags: ['OAuth 2.0'],
    permission: 'read' as const,
  };

  routes.staffPage(
    {
      ...common,
      path: '/auth/oauth/authorize',
      summary: 'Authorization endpoint: the adviser signs in and allows or denies a partner application',
      description:
        'A browser page (authorization code grant with PKCE). Not signed in → the staff sign-in page, then back here. An unknown or disabled client or a redirect URI that is not registered exactly is shown as an error page; other errors go back to the redirect URI as `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207). The checked request is kept on the server for the signed-in adviser; the consent form posts only its id (`request_id`).',
      query: AuthorizeQuery,
      statuses: {
        200: 'The consent page naming the application and what it may do',
        303: 'Not signed in (to the sign-in page), or an error sent back to the client',
        400: 'Unknown client or redirect URI (shown, not redirected)',
        403: 'A disabled client, or one of another organisation',
      },
    },
    async ({ ctx, query, res, csrf }) => {
      const check = await checkAuthorization(deps, ctx, query);
      if (check.kind === 'refuse')
        return { status: check.status, html: staffErrorPage(check.status, check.message) };
      if (check.kind === 'redirect') return { redirect: check.to };
      const r = check.request;
      allowFormTarget(res, r.redirectUri);
      return {
        status: 200,
        html: consentPage({
          csrf: csrf(),
          me: await whoConsents(deps, ctx),
          client: r.client.name,
          scopes: r.scopes,
          redirectUri: r.redirectUri,
          requestId: await rememberRequest(deps, ctx, r),
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/auth/oauth/authorize',
      summary: 'The adviser’s decision on the consent page (form post)',
      description: `\`request_id\` (the authorization request the consent page showed, kept on the server), \`_csrf\` and \`decision\` (allow|deny): nothing else. The request is used as the page showed it — its client, redirect URI, scope, state and PKCE challenge — and checked again against the client; it can be answered once, by the adviser it was shown to, within ${CONSENT_SECONDS / 60} minutes. Allow → the redirect URI with a single-use \`code\` (60 s), \`state\` and \`iss\`; deny → \`error=access_denied\`.`,
      form: ConsentForm,
      statuses: {
        303: 'Back to the client with the code or the error',
        400: 'A request_id that is unknown, expired, answered already or another adviser’s; a form field other than these three; or a client or redirect URI no longer registered',
        403: 'A client disabled meanwhile',
      },
    },
    async ({ ctx, form }) => {
      const answer = await answerConsent(deps, ctx, form.request_id, form.decision);
      if (answer.kind === 'refuse')
        return { status: answer.status, html: staffErrorPage(answer.status, answer.message) };
      return { redirect: answer.to };
    },
  );
}
