import type { UserNotice, UserProblem } from '../../i18n/desk-users';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { groups as allGroups, type Group } from '../../platform/kernel/permissions';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { type AccountsDeps, sendPasswordLink } from '../accounts';
import {
  createApiKey,
  createUser,
  endUserSessions,
  getUser,
  listApiKeys,
  listUsers,
  revokeApiKey,
  setUserStatus,
  updateUser,
} from '../organisations';
import { adminPage, checkboxList, csrfInput, DoneQuery, refusalMessage } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import { userPage, usersPage } from './pages/admin.pages';

type UserPageDeps = DeskDeps & AccountsDeps;

const UserParams = z.object({ userId: idParam('userId') });
const KeyParams = z.object({ userId: idParam('userId'), keyId: idParam('keyId') });

const notices: readonly UserNotice[] = [
  'created',
  'invited',
  'no-link',
  'groups',
  'active',
  'deactivated',
  'link',
  'signed-out',
  'revoked',
];

/** A form's refusal, named in the page's words. */
class FormProblem extends AppError {
  constructor(readonly problem: UserProblem) {
    super(400, problem);
  }
}

/** A refusal as the page shows it: the form's own by its name (the page says it), a service's as it says it. */
function refusalOn(err: unknown): { status: number; error?: string; problem?: UserProblem } {
  if (err instanceof FormProblem) return { status: 400, problem: err.problem };
  const { status, message } = refusalMessage(err);
  return { status, error: message };
}

const groupsOf = (given: string[]): Group[] =>
  given.filter((g): g is Group => (allGroups as readonly string[]).includes(g));

/**
 * Administrators' pages: users, their groups, activation, password links and API keys (spec 5.1.2); then,
 * registered after them, Integrations → OAuth clients (clients.router.ts).
 */
export function userPageRoutes(routes: Routes, deps: UserPageDeps): void {
  userListRoutes(routes, deps);
  userRoutes(routes, deps);
  apiKeyRoutes(routes, deps);
}

/** The users' list and the form to add one. */
function userListRoutes(routes: Routes, deps: UserPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/users',
      summary: 'Users of the organisation (administrators)',
      query: DoneQuery,
      statuses: {
        200: 'The list and the form to add one',
        303: 'Not signed in',
        403: 'Not an administrator',
      },
    },
    async ({ ctx, csrf: token, query }) => {
      const { users } = await listUsers(deps, ctx);
      return {
        status: 200,
        html: usersPage(await deskFrame(deps, ctx, token()), users, {
          notice: notices.find((n) => n === query.done),
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/users',
      summary: 'Add a user (form post)',
      description:
        'Fields: `_csrf`, `name`, `email`, `kind` (staff|service), `groups` (repeated), `invite` (`yes`: e-mail a staff user a password link).',
      form: z.object({
        _csrf: csrfInput,
        name: z.string().max(1000),
        email: z.string().max(1000),
        kind: z.enum(['staff', 'service']).default('staff'),
        groups: checkboxList,
        invite: z.literal('yes').optional(),
      }),
      statuses: {
        303: 'Added: to the user’s page',
        400: 'Refused (named why), the list again',
        409: 'The e-mail is taken',
      },
    },
    async ({ ctx, form, csrf: token }) => {
      try {
        const name = form.name.trim();
        const email = form.email.trim();
        if (!name) throw new FormProblem('name');
        if (!z.email().safeParse(email).success) throw new FormProblem('email');
        const picked = groupsOf(form.groups);
        if (picked.length === 0) throw new FormProblem('groups');
        const user = await createUser(deps, ctx, { name, email, kind: form.kind, groups: picked });
        if (form.invite !== 'yes' || user.kind !== 'staff')
          return { redirect: `/staff/users/${user._id}?done=created` };
        // The user exists now, whatever happens to the link: a failure is said on their page.
        const invited = await sendPasswordLink(deps, ctx, user._id).then(
          () => true,
          () => false,
        );
        return { redirect: `/staff/users/${user._id}?done=${invited ? 'invited' : 'no-link'}` };
      } catch (err) {
        const { status, ...refusal } = refusalOn(err);
        const { users } = await listUsers(deps, ctx);
        return { status, html: usersPage(await deskFrame(deps, ctx, token()), users, refusal) };
      }
    },
  );
}

/** The user's page: groups, status and API keys, with a notice, a refusal or the key just made. */
async function showUser(
  deps: UserPageDeps,
  ctx: RequestContext,
  token: string,
  userId: string,
  extra: {
    status?: number;
    notice?: UserNotice;
    error?: string;
    problem?: UserProblem;
    created?: { name: string; key: string };
  } = {},
) {
  const user = await getUser(deps, ctx, userId);
  const modes = await Promise.all(
    (['live', 'test'] as const).map((mode) => listApiKeys(deps, ctx, { userId, includeRevoked: true, mode })),
  );
  const apiKeys = modes.flatMap((m) => m.apiKeys).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    status: extra.status ?? 200,
    html: userPage(await deskFrame(deps, ctx, token), { user, keys: apiKeys, ...extra }),
  };
}

/** A user's page and its form posts: groups, activation, signing out, a password link. */
function userRoutes(routes: Routes, deps: UserPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/users/{userId}',
      summary: 'A user: groups, activation, password link and API keys (administrators)',
      params: UserParams,
      query: DoneQuery,
      statuses: {
        200: 'The user’s page',
        303: 'Not signed in',
        403: 'Not an administrator',
        404: 'Unknown user',
      },
    },
    async ({ ctx, params, query, csrf: token }) =>
      showUser(deps, ctx, token(), params.userId, { notice: notices.find((n) => n === query.done) }),
  );

  /** A form post on a user's page: the change, then back to the page (or the page with the refusal). */
  const action = <F extends z.ZodType>(
    path: string,
    summary: string,
    form: F,
    run: (ctx: RequestContext, userId: string, form: z.output<F>) => Promise<string>,
  ) =>
    routes.staffPage(
      {
        ...adminPage,
        method: 'post',
        path: `/staff/users/{userId}/${path}`,
        summary,
        params: UserParams,
        form,
        statuses: { 303: 'Done: back to the user’s page', 404: 'Unknown user', 409: 'Refused (named why)' },
      },
      async ({ ctx, params, form: input, csrf: token }) => {
        try {
          const notice = await run(ctx, params.userId, input);
          return {
            redirect: `/staff/users/${params.userId}?done=${notice}#${path === 'groups' ? 'groups' : 'keys'}`,
          };
        } catch (err) {
          return showUser(deps, ctx, token(), params.userId, refusalOn(err));
        }
      },
    );

  action(
    'groups',
    'Save a user’s groups (form post)',
    z.object({ _csrf: csrfInput, groups: checkboxList }),
    async (ctx, id, f) => {
      const picked = groupsOf(f.groups);
      if (picked.length === 0) throw new FormProblem('groups');
      await updateUser(deps, ctx, id, { groups: picked });
      return 'groups';
    },
  );
  action(
    'status',
    'Deactivate or reactivate a user (form post)',
    z.object({ _csrf: csrfInput, status: z.enum(['active', 'deactivated']) }),
    async (ctx, id, f) => {
      await setUserStatus(deps, ctx, id, f.status);
      return f.status;
    },
  );
  action(
    'sign-out',
    'Sign a user out of every browser (form post)',
    z.object({ _csrf: csrfInput }),
    async (ctx, id) => {
      await endUserSessions(deps, ctx, id);
      return 'signed-out';
    },
  );
  action(
    'password-link',
    'E-mail a user a password link (form post)',
    z.object({ _csrf: csrfInput }),
    async (ctx, id) => {
      await sendPasswordLink(deps, ctx, id);
      return 'link';
    },
  );
}

/** A user's API keys: create one (shown once, on the user's page) and revoke one. */
function apiKeyRoutes(routes: Routes, deps: UserPageDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/users/{userId}/apikeys',
      summary: 'Create an API key (form post): the page shows it once',
      description:
        'Fields: `_csrf`, `name`, `mode` (`live`, the default, or `test`: a test key, issue 31). Answers the user’s page with the new key (201), the only time it is shown; the page is not cached.',
      params: UserParams,
      form: z.object({
        _csrf: csrfInput,
        name: z.string().max(1000),
        mode: z.enum(['live', 'test']).optional().default('live'),
      }),
      statuses: { 201: 'The key, shown once', 400: 'No name', 404: 'Unknown user' },
    },
    async ({ ctx, params, form, csrf: token }) => {
      const name = form.name.trim();
      if (!name || name.length > 200) {
        return showUser(deps, ctx, token(), params.userId, {
          status: 400,
          problem: 'keyName',
        });
      }
      const key = await createApiKey(deps, ctx, params.userId, { name, mode: form.mode });
      return showUser(deps, ctx, token(), params.userId, {
        status: 201,
        created: { name: key.name, key: key.apiKey },
      });
    },
  );

  routes.staffPage(
    {
      ...adminPage,
      method: 'post',
      path: '/staff/users/{userId}/apikeys/{keyId}/revoke',
      summary: 'Revoke an API key (form post)',
      params: KeyParams,
      form: z.object({ _csrf: csrfInput }),
      statuses: { 303: 'Revoked', 404: 'Unknown key', 409: 'Already revoked' },
    },
    async ({ ctx, params, csrf: token }) => {
      try {
        await revokeApiKey(deps, ctx, params.userId, params.keyId);
        return { redirect: `/staff/users/${params.userId}?done=revoked#keys` };
      } catch (err) {
        const { status, message } = refusalMessage(err);
        return showUser(deps, ctx, token(), params.userId, { status, error: message });
      }
    },
  );
}
