import { OAuthErrorBody } from '../../platform/http/openapi';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { OAuthFields } from './oauth.forms';
import type { TokenDeps } from './tokens.model';
import { GRANTS, tokenEndpoint } from './tokens.service';

const TokenRequest = z
  .object({
    grant_type: z.enum(GRANTS),
    client_id: z
      .string()
      .optional()
      .meta({ description: 'Or HTTP Basic authentication (beside it, only the same client_id)' }),
    client_secret: z.string().optional().meta({
      description:
        'Confidential clients: or HTTP Basic authentication, never both. Public clients have none.',
    }),
    scope: z.string().optional().meta({
      description:
        'Space-separated. client_credentials: granted = requested ∩ the client’s scopes; none → all the client’s. refresh_token: a subset of the original grant.',
    }),
    code: z
      .string()
      .optional()
      .meta({ description: 'authorization_code: the code from the redirect (single-use, 60 s)' }),
    redirect_uri: z
      .string()
      .optional()
      .meta({ description: 'authorization_code: exactly the redirect_uri of the authorization request' }),
    code_verifier: z.string().optional().meta({
      description: 'authorization_code: the PKCE verifier (RFC 7636) when a code_challenge was sent',
    }),
    refresh_token: z.string().optional().meta({
      description: 'refresh_token: the latest refresh token; it is rotated (a reused one revokes the chain)',
    }),
  })
  .meta({ id: 'TokenRequest' });

const TokenResponse = z
  .object({
    token_type: z.literal('Bearer'),
    access_token: z.string().meta({ description: 'adt_… — opaque; send it as Authorization: Bearer' }),
    expires_in: z.number().int().meta({ description: 'Seconds (OAUTH_ACCESS_TOKEN_SECONDS, default 28800)' }),
    scope: z.string().meta({ description: 'The granted scope, space-separated' }),
    refresh_token: z.string().optional().meta({
      description: 'adr_… — authorization_code and refresh_token grants: use it once to get the next pair',
    }),
  })
  .meta({ id: 'TokenResponse', description: 'Spec 2.6' });

const TokenError = OAuthErrorBody;

/** The OAuth 2.0 token endpoint (spec 4.12, RFC 6749). */
export function tokenRoutes(routes: Routes, deps: TokenDeps): void {
  const endpoint = tokenEndpoint(deps);
  routes.formEndpoint(
    {
      path: '/auth/oauth/token',
      summary: 'Get an access token (OAuth 2.0 token endpoint)',
      description:
        'application/x-www-form-urlencoded. The client authenticates with HTTP Basic (client_id:client_secret) or with the client_id and client_secret fields, never both: HTTP Basic with a client_secret field, or with a client_id field naming another client, is invalid_request (RFC 6749 §2.3); its own client_id beside HTTP Basic is allowed. Answers `Cache-Control: no-store`. Errors carry the RFC 6749 code in `error` inside the API’s error shape.',
      tags: ['OAuth 2.0'],
      form: TokenRequest,
      fields: OAuthFields,
      response: TokenResponse,
      rateLimit: 'token',
      errors: [
        {
          status: 400,
          description:
            'invalid_request (also: the client authenticated two ways), invalid_grant, unsupported_grant_type, invalid_scope',
          schema: TokenError,
        },
        {
          status: 401,
          description: 'invalid_client (unknown, disabled, or a wrong secret)',
          schema: TokenError,
        },
      ],
    },
    ({ form, req }) => endpoint({ method: req.method, headers: req.headers, form }),
  );
}
