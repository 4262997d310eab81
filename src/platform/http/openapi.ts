import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from '../kernel/zod';
import { assignOperationIds, nameInlineSchemas } from './operation-ids';

export { OpenAPIRegistry };

export const ErrorBody = z
  .object({
    success: z.literal(false),
    error: z.string().meta({ description: 'What went wrong, naming the failing fields for a 400' }),
    status: z.number().int().meta({ description: 'The HTTP status' }),
    details: z
      .array(
        z.object({
          field: z.string().meta({ description: 'The field, parameter or state property concerned' }),
          in: z.enum(['path', 'query', 'body', 'header', 'state']).meta({
            description:
              'Where it was found: a part of the request, or `state` for the current state of the target (409)',
          }),
          message: z.string().meta({ description: 'What is wrong, in plain words' }),
          value: z
            .string()
            .optional()
            .meta({ description: 'The value found: a current status, the id of the record holding a name' }),
        }),
      )
      .max(21)
      .meta({
        description:
          'One entry per problem (at most 20, then one entry saying how many more); the same shape for every status, empty when there is nothing more to say than `error`',
      }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request, for the logs' }),
  })
  .meta({ id: 'Error' });

export const AuthErrorBody = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: z.number().int().meta({ description: 'The HTTP status (401 or 403)' }),
    details: z.array(z.object({ field: z.string(), in: z.string(), message: z.string() })).meta({
      description: 'Empty for authentication failures; present as on every other error',
    }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request, for the logs' }),
  })
  .meta({ id: 'AuthError' });

/** An OAuth endpoint's error (RFC 6749 §5.2 `error` and `error_description`, in the API's error shape). */
export const OAuthErrorBody = z
  .object({
    success: z.literal(false),
    error: z.string().meta({
      description:
        'RFC 6749 §5.2: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope; temporarily_unavailable (429, 503) and server_error (500)',
    }),
    error_description: z.string(),
    code: z.number().int().meta({ description: 'The HTTP status' }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request, for the logs' }),
  })
  .meta({ id: 'OAuthError' });

const oauthScopes = {
  read: 'Read contacts, templates, actions, sessions, files, events',
  create: 'Create contacts, actions, files, setups, webhooks',
  update: 'Change them, reopen and withdraw actions',
  delete: 'Delete them',
  all: 'Everything the acting user may do, administration included',
};

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'An API key of a user of the organisation (adk_…); it carries that user’s permissions.',
  });
  registry.registerComponent('securitySchemes', 'OAuth2', {
    type: 'oauth2',
    description:
      'OAuth 2.0 access tokens of partner applications (`Authorization: Bearer adt_…`). A token does what its scope allows within what its user may — the client’s service user (client credentials) or the adviser who allowed it (authorization code with PKCE S256); `all` is everything the user may. Each operation lists the scope it needs. Metadata: `/.well-known/oauth-authorization-server` (RFC 8414).',
    flows: {
      clientCredentials: { tokenUrl: '/api/v1/auth/oauth/token', scopes: oauthScopes },
      authorizationCode: {
        authorizationUrl: '/api/v1/auth/oauth/authorize',
        tokenUrl: '/api/v1/auth/oauth/token',
        refreshUrl: '/api/v1/auth/oauth/token',
        scopes: oauthScopes,
      },
    },
  });
  registry.registerComponent('securitySchemes', 'StaffSession', {
    type: 'apiKey',
    in: 'cookie',
    name: 'adk_staff',
    description:
      'A staff browser session (signed in on `/signin`; `__Host-adk_staff` over HTTPS). Requests other than GET must also send the CSRF token of the page in the `x-csrf-token` header or the `_csrf` form field.',
  });
  return registry;
}

export function generateDocument(registry: OpenAPIRegistry, serverUrl: string) {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'ActionDesk API',
      version: '1.0.0',
      description:
        'Contacts, questionnaire and signing actions, sessions and deep links for an organisation’s advisers ' +
        'and their CRM/ERP software. Every error body is `{success:false, error, status}`; authentication and ' +
        'permission failures are `{success:false, error, code}`.',
    },
    servers: [{ url: serverUrl }],
  });
  assignOperationIds((document.paths ?? {}) as Parameters<typeof assignOperationIds>[0]);
  nameInlineSchemas(document as Parameters<typeof nameInlineSchemas>[0]);
  return document;
}
