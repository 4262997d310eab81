import type { RateLimits } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/schemas';
import { z } from '../../platform/zod';
import { getRateLimits, setRateLimits } from './limits.service';
import {
  ApiKey,
  ApiKeyList,
  CreateApiKey,
  CreatedApiKey,
  CreateUser,
  ListApiKeysQuery,
  ListUsersQuery,
  RateLimitSettings,
  SessionsEnded,
  UpdateRateLimits,
  UpdateUser,
  User,
  UserList,
} from './organisations.schemas';
import {
  type AdminDeps,
  createApiKey,
  createUser,
  deleteUser,
  endUserSessions,
  getUser,
  listApiKeys,
  listUsers,
  revokeApiKey,
  setUserStatus,
  updateUser,
} from './organisations.service';

const UserParams = z.object({ userId: idParam('userId') });
const KeyParams = z.object({ userId: idParam('userId'), keyId: idParam('keyId') });
const users = ['Admin: users'];
const keys = ['Admin: API keys'];

export function adminRoutes(routes: Routes, deps: AdminDeps & { limits: RateLimits }): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/rate-limits',
      summary: 'The organisation’s rate limits',
      description: 'See docs/api.md#rate-limits for every limit and the back-off clients should use.',
      tags: ['Admin: rate limits'],
      permission: 'admin',
      response: RateLimitSettings,
    },
    ({ ctx }) => getRateLimits(deps, ctx),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/rate-limits',
      summary: 'Set the organisation’s API rate limit',
      description:
        'Requests a minute allowed to each API key, OAuth client and staff user of the organisation (null: the service default). Applies at once on the instance that answers, within 30 seconds on the others. Audited.',
      tags: ['Admin: rate limits'],
      permission: 'admin',
      body: UpdateRateLimits,
      response: RateLimitSettings,
    },
    ({ ctx, body }) => setRateLimits(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/users',
      summary: 'List the organisation’s users',
      tags: users,
      permission: 'admin',
      query: ListUsersQuery,
      response: UserList,
    },
    ({ ctx, query }) => listUsers(deps, ctx, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/users',
      summary: 'Create a user (staff or service account)',
      tags: users,
      permission: 'admin',
      body: CreateUser,
      status: 201,
      response: User,
      errors: [409],
    },
    ({ ctx, body }) => createUser(deps, ctx, body),
  );
  routes.add(
    {
      method: 'get',
      path: '/admin/users/{userId}',
      summary: 'Get a user',
      tags: users,
      permission: 'admin',
      params: UserParams,
      response: User,
    },
    ({ ctx, params }) => getUser(deps, ctx, params.userId),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/users/{userId}',
      summary: 'Rename a user or change their groups',
      description: 'Removing the last active administrator from the administrator group gives 409.',
      tags: users,
      permission: 'admin',
      params: UserParams,
      body: UpdateUser,
      response: User,
      errors: [409],
    },
    ({ ctx, params, body }) => updateUser(deps, ctx, params.userId, body),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/deactivate',
      summary: 'Deactivate a user: their keys are refused (403) from the next request on',
      tags: users,
      permission: 'admin',
      params: UserParams,
      response: User,
      errors: [409],
    },
    ({ ctx, params }) => setUserStatus(deps, ctx, params.userId, 'deactivated'),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/reactivate',
      summary: 'Reactivate a deactivated user',
      tags: users,
      permission: 'admin',
      params: UserParams,
      response: User,
      errors: [409],
    },
    ({ ctx, params }) => setUserStatus(deps, ctx, params.userId, 'active'),
  );
  routes.add(
    {
      method: 'post',
      path: '/admin/users/{userId}/sign-out',
      summary: 'Sign a user out everywhere: every browser session of theirs ends at once',
      description:
        'Each of the user’s staff browser sessions is sent to the sign-in page on its next request, also one whose request is under way; the user can sign in again. API keys and OAuth tokens are not touched (revoke them, or deactivate the user). Deactivating a user, or narrowing their groups, ends their sessions the same way.',
      tags: users,
      permission: 'admin',
      params: UserParams,
      response: SessionsEnded,
    },
    ({ ctx, params }) => endUserSessions(deps, ctx, params.userId),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/users/{userId}',
      summary: 'Delete a user and their API keys',
      tags: users,
      permission: 'admin',
      params: UserParams,
      status: 204,
      responseDescription: 'Deleted',
      errors: [409],
    },
    async ({ ctx, params }) => {
      await deleteUser(deps, ctx, params.userId);
      return undefined;
    },
  );
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
    ({ ctx, params, body }) => createApiKey(deps, ctx, params.userId, body.name),
  );
  routes.add(
    {
      method: 'delete',
      path: '/admin/users/{userId}/apikeys/{keyId}',
      summary: 'Revoke an API key: refused from the next request on',
      tags: keys,
      permission: 'admin',
      params: KeyParams,
      response: ApiKey,
      errors: [409],
    },
    ({ ctx, params }) => revokeApiKey(deps, ctx, params.userId, params.keyId),
  );
}
