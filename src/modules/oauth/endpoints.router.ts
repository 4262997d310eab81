import { OAuthErrorBody } from '../../platform/http/openapi';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { type EndpointDeps, introspect, revoke, serverMetadata } from './endpoints.service';
import { OAuthFields } from './oauth.forms';
import { oauthScopes } from './oauth.schemas';

const ClientAuth = {
  client_id: z.string().optional().meta({
    description:
      'Or HTTP Basic authentication (beside it, only the same client_id); a public client sends only this',
  }),
  client_secret: z
    .string()
    .optional()
    .meta({ description: 'Confidential clients: or HTTP Basic authentication, never both' }),
};
const TokenForm = (id: string) =>
  z
    .object({
      token: z.string().meta({ description: 'The access (adt_…) or refresh (adr_…) token' }),
      token_type_hint: z
        .enum(['access_token', 'refresh_token'])
        .optional()
        .meta({ description: 'Ignored: the token says what it is' }),
      ...ClientAuth,
    })
    .meta({ id });

const EndpointError = OAuthErrorBody;
const errors = [
  {
    status: 400,
    description:
      'invalid_request: no token, or the client authenticated two ways (HTTP Basic and client_secret, or another client_id, in the form)',
    schema: EndpointError,
  },
  { status: 401, description: 'invalid_client: unknown, disabled, or a wrong secret', schema: EndpointError },
];

const IntrospectionResponse = z
  .object({
    active: z.boolean(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    token_type: z.enum(['Bearer', 'refresh_token']).optional(),
    exp: z.number().int().optional().meta({ description: 'Expiry, seconds since 1970' }),
    iat: z.number().int().optional().meta({ description: 'Issued at, seconds since 1970' }),
    sub: z.string().optional().meta({ description: 'The user the token acts for' }),
    iss: z.string().optional(),
    organisation_id: z.string().optional(),
  })
  .meta({
    id: 'TokenIntrospection',
    description: 'RFC 7662 §2.2; inactive, unknown and other clients’ tokens: {active:false}',
  });

const ServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    introspection_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    introspection_endpoint_auth_methods_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    service_documentation: z.string(),
  })
  .meta({ id: 'AuthorizationServerMetadata', description: 'RFC 8414' });

/** RFC 7009 revocation and RFC 7662 introspection, beside the token endpoint. */
export function oauthEndpointRoutes(routes: Routes, deps: EndpointDeps): void {
  routes.formEndpoint(
    {
      path: '/auth/oauth/revoke',
      summary: 'Revoke a token (RFC 7009)',
      description:
        'application/x-www-form-urlencoded; the client authenticates as at the token endpoint. A refresh token revokes everything issued from the same consent. Unknown, expired and other clients’ tokens are answered 200 as well.',
      tags: ['OAuth 2.0'],
      form: TokenForm('RevocationRequest'),
      fields: OAuthFields,
      response: z.object({}).meta({ id: 'RevocationResponse' }),
      errors,
      rateLimit: 'token',
    },
    ({ form, req }) => revoke(deps, { method: req.method, headers: req.headers, form }),
  );
  routes.formEndpoint(
    {
      path: '/auth/oauth/introspect',
      summary: 'Introspect a token (RFC 7662)',
      description:
        'application/x-www-form-urlencoded; the client authenticates as at the token endpoint and learns only about its own tokens. Active means: not expired, not revoked, its client enabled and its user active.',
      tags: ['OAuth 2.0'],
      form: TokenForm('IntrospectionRequest'),
      fields: OAuthFields,
      response: IntrospectionResponse,
      errors,
      rateLimit: 'token',
    },
    ({ form, req }) => introspect(deps, { method: req.method, headers: req.headers, form }),
  );
}

/** RFC 8414 metadata at the site's root (openid-client and other libraries discover the server by it). */
export function oauthMetadataRoutes(rootRoutes: Routes, issuer: string): void {
  const metadata = serverMetadata(issuer, oauthScopes);
  rootRoutes.public(
    {
      method: 'get',
      path: '/.well-known/oauth-authorization-server',
      summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
      tags: ['OAuth 2.0'],
      response: ServerMetadata,
    },
    async () => metadata,
  );
}
