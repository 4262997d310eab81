import type { Routes } from '../../platform/http/routes';
import {
  CreateUser,
  ListUsersQuery,
  SessionsEnded,
  UpdateUser,
  User,
  UserList,
  UserParams,
} from './organisations.schemas';
import {
  type AdminDeps,
  createUser,
  deleteUser,
  endUserSessions,
  getUser,
  listUsers,
  setUserStatus,
  updateUser,
} from './organisations.service';

const users = ['Admin: users'];

/** The organisation's users (administrators): list, create, change, (de)activate, sign out, delete. */
/** Refused to test credentials: a test organisation shares its live one's staff and sign-in. */
const LIVE_ONLY = 'Staff users are managed in live mode';

export function userRoutes(routes: Routes, deps: AdminDeps): void {
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
      liveOnly: LIVE_ONLY,
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
      liveOnly: LIVE_ONLY,
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
      liveOnly: LIVE_ONLY,
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
      liveOnly: LIVE_ONLY,
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
      liveOnly: LIVE_ONLY,
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
      liveOnly: LIVE_ONLY,
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
}
