import type { Routes } from '../../platform/http/routes';
import {
  ApiKey,
  ApiKeyList,
  ApiKeyParams,
  CreateApiKey,
  CreatedApiKey,
  ListApiKeysQuery,
  UserParams,
} from './organisations.schemas';
import { type AdminDeps, createApiKey, listApiKeys, revokeApiKey } from './organisations.service';

const keys = ['Admin: API keys'];

/** The API keys of the organisation's users (administrators): list, create, revoke. */
export function apiKeyRoutes(routes: Routes, deps: AdminDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/apikeys',
      summary: 'List API keys of the organisation’s users (never the keys themselves)',
      tags: keys,
      permission: 'admin',
      query: ListApiKeysQuery,
      response: ApiKeyList,
      errors: [404],
    },
    ({ ctx, query }) => listApiKeys(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/users/{userId}/apikeys',
      summary: 'List a user’s API keys',
      tags: keys,
      permission: 'admin',
      params: UserParams,
      query: ListApiKeysQuery.omit({ userId: true }),
      response: ApiKeyList,
    },
    ({ ctx, params, query }) => listApiKeys(deps, ctx, { ...query, userId: params.userId }),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/apikeys',
      summary: 'Create an API key for a user; the key is shown only in this response',
      tags: keys,
      permission: 'admin',
      params: UserParams,
      body: CreateApiKey,
      status: 201,
      response: CreatedApiKey,
    },
    ({ ctx, params, body }) => createApiKey(deps, ctx, params.userId, body),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/users/{userId}/apikeys/{keyId}',
      summary: 'Revoke an API key: refused from the next request on',
      tags: keys,
      permission: 'admin',
      params: ApiKeyParams,
      response: ApiKey,
      errors: [409],
    },
    ({ ctx, params }) => revokeApiKey(deps, ctx, params.userId, params.keyId),
  );
}
