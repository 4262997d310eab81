import type { Response } from 'express';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/zod';
import { staffErrorPage } from '../../web/staff-layout';
import { consentPage } from '../../web/staff-oauth-pages';
import {
  type AuthorizeDeps,
  type AuthorizeParams,
  checkAuthorization,
  denied,
  issueCode,
  whoConsents,
} from './authorize.service';

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
const ConsentForm = AuthorizeQuery.extend({
  _csrf: z.string().max(300),
  decision: z.enum(['allow', 'deny']),
});

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
        'A browser page (authorization code grant with PKCE). Not signed in → the staff sign-in page, then back here. An unknown or disabled client or a redirect URI that is not registered exactly is shown as an error page; other errors go back to the redirect URI as `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207).',
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
          fields: {
            response_type: 'code',
            client_id: r.client.clientId,
            // Posted back only if the client sent it: the token request must repeat only what it sent.
            redirect_uri: r.redirectUriGiven ? r.redirectUri : undefined,
            scope: r.scopes.join(' '),
            state: r.state,
            code_challenge: r.codeChallenge,
            code_challenge_method: r.codeChallengeMethod,
          },
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
      description:
        'The request’s parameters again (checked again), `_csrf` and `decision` (allow|deny). Allow → the redirect URI with a single-use `code` (60 s), `state` and `iss`; deny → `error=access_denied`.',
      form: ConsentForm,
      statuses: {
        303: 'Back to the client with the code or the error',
        400: 'Unknown client or redirect URI',
        403: 'A disabled client, or one of another organisation',
      },
    },
    async ({ ctx, form }) => {
      const { _csrf, decision, ...params } = form;
      const check = await checkAuthorization(deps, ctx, params as AuthorizeParams);
      if (check.kind === 'refuse')
        return { status: check.status, html: staffErrorPage(check.status, check.message) };
      if (check.kind === 'redirect') return { redirect: check.to };
      return {
        redirect:
          decision === 'allow' ? await issueCode(deps, ctx, check.request) : denied(deps, check.request),
      };
    },
  );
}
