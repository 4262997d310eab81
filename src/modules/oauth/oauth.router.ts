import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { listClientTokens, revokeClientTokens } from './client-tokens.service';
import {
  ClientTokenList,
  CreatedOAuthClient,
  CreateOAuthClient,
  ListClientsQuery,
  OAuthClient,
  OAuthClientList,
  RevokedTokens,
  RotatedSecret,
} from './oauth.schemas';
import {
  createClient,
  getClient,
  listClients,
  type OAuthDeps,
  rotateSecret,
  setClientDisabled,
} from './oauth.service';

const tags = ['Admin: OAuth clients'];
const Params = z.object({ clientId: idParam('clientId') });
const TokenParams = Params.extend({ tokenId: idParam('tokenId') });

/** The administrators' API for partner applications (OAuth 2.0 clients). */
export function oauthClientRoutes(routes: Routes, deps: OAuthDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/oauth/clients',
      summary: 'List the organisation’s OAuth clients',
      tags,
      permission: 'admin',
      query: ListClientsQuery,
      response: OAuthClientList,
    },
    ({ ctx, query }) => listClients(deps, ctx, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/oauth/clients',
      summary: 'Register an OAuth client (partner application)',
      description:
        'The answer carries `clientSecret` (confidential clients): the only time it is shown. With client_credentials the client acts within `serviceUserId` (a service user of the organisation) or, left out, a new service user named after the client, in `serviceUserGroups` (default adviser): its tokens can never do more than that user.',
      tags,
      permission: 'admin',
      body: CreateOAuthClient,
      status: 201,
      response: CreatedOAuthClient,
    },
    ({ ctx, body }) => createClient(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/oauth/clients/{clientId}',
      summary: 'One OAuth client',
      tags,
      permission: 'admin',
      params: Params,
      response: OAuthClient,
    },
    ({ ctx, params }) => getClient(deps, ctx, params.clientId),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/oauth/clients/{clientId}/rotate-secret',
      summary: 'Give a confidential client a new secret (shown once; the old one stops working)',
      tags,
      permission: 'admin',
      params: Params,
      optionalBody: true,
      response: RotatedSecret,
      errors: [409],
    },
    ({ ctx, params }) => rotateSecret(deps, ctx, params.clientId),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/oauth/clients/{clientId}/tokens',
      summary: 'The client’s live tokens, with whom they act for and when they were last used',
      tags,
      permission: 'admin',
      params: Params,
      query: ListClientsQuery,
      response: ClientTokenList,
    },
    ({ ctx, params, query }) => listClientTokens(deps, ctx, params.clientId, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/oauth/clients/{clientId}/tokens/{tokenId}/revoke',
      summary: 'Revoke one of the client’s tokens (a refresh token with everything its consent issued)',
      tags,
      permission: 'admin',
      params: TokenParams,
      optionalBody: true,
      response: RevokedTokens,
    },
    ({ ctx, params }) => revokeClientTokens(deps, ctx, params.clientId, params.tokenId),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/oauth/clients/{clientId}/revoke-tokens',
      summary: 'Revoke every live token of the client (it can ask for new ones unless disabled)',
      tags,
      permission: 'admin',
      params: Params,
      optionalBody: true,
      response: RevokedTokens,
    },
    ({ ctx, params }) => revokeClientTokens(deps, ctx, params.clientId),
  );
  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    routes.add(
      {
        method: 'post',
        path: `/admin/oauth/clients/{clientId}/${action}`,
        summary: disabled ? 'Disable an OAuth client' : 'Enable a disabled OAuth client',
        tags,
        permission: 'admin',
        params: Params,
        optionalBody: true,
        response: OAuthClient,
        errors: [409],
      },
      ({ ctx, params }) => setClientDisabled(deps, ctx, params.clientId, disabled),
    );
  }
}
