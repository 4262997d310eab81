import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/zod';
import { type TokenDeps, tokenEndpoint } from './tokens.service';

const TokenRequest = z
  .object({
    grant_type: z
      .enum(['client_credentials'])
      .meta({ description: 'client_credentials (more grants follow)' }),
    client_id: z.string().optional().meta({ description: 'Or HTTP Basic authentication' }),
    client_secret: z.string().optional().meta({ description: 'Or HTTP Basic authentication' }),
    scope: z.string().optional().meta({
      description: 'Space-separated; granted = requested ∩ the client’s scopes; none → all the client’s',
    }),
  })
  .meta({ id: 'TokenRequest' });

export const TokenResponse = z
  .object({
    token_type: z.literal('Bearer'),
    access_token: z.string().meta({ description: 'adt_… — opaque; send it as Authorization: Bearer' }),
    expires_in: z.number().int().meta({ description: 'Seconds (OAUTH_ACCESS_TOKEN_SECONDS, default 28800)' }),
    scope: z.string().meta({ description: 'The granted scope, space-separated' }),
  })
  .meta({ id: 'TokenResponse', description: 'Spec 2.6' });

const TokenError = z
  .object({
    success: z.literal(false),
    error: z.string().meta({
      description:
        'RFC 6749 §5.2: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope',
    }),
    error_description: z.string(),
    code: z.number().int().meta({ description: 'The HTTP status' }),
  })
  .meta({ id: 'TokenError' });

/** The OAuth 2.0 token endpoint (spec 4.12, RFC 6749). */
export function tokenRoutes(routes: Routes, deps: TokenDeps): void {
  const endpoint = tokenEndpoint(deps);
  routes.formEndpoint(
    {
      path: '/auth/oauth/token',
      summary: 'Get an access token (OAuth 2.0 token endpoint)',
      description:
        'application/x-www-form-urlencoded. The client authenticates with HTTP Basic (client_id:client_secret) or with the client_id and client_secret fields. Answers `Cache-Control: no-store`. Errors carry the RFC 6749 code in `error` inside the API’s error shape.',
      tags: ['OAuth 2.0'],
      form: TokenRequest,
      response: TokenResponse,
      errors: [
        {
          status: 400,
          description: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope',
          schema: TokenError,
        },
        {
          status: 401,
          description: 'invalid_client (unknown, disabled, or a wrong secret)',
          schema: TokenError,
        },
      ],
    },
    ({ req, res }) => endpoint(req, res),
  );
}
