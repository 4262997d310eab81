import { auditRepository } from '../../platform/audit/audit.repository';
import { generateApiKey, isTestApiKey } from '../../platform/crypto/api-keys';
import type { Database, Tx } from '../../platform/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { isId, newId } from '../../platform/kernel/ids';
import type { Group } from '../../platform/kernel/permissions';
import { iso } from '../../platform/kernel/schemas';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import {
  type ApiKeyRow,
  apiKeyRepository,
  organisationRepository,
  type UserRow,
  userRepository,
} from './organisations.repository';
import type { ApiKey, CreateUser, UpdateUser, User } from './organisations.schemas';
import { inMode, type Mode, modeOfCurrent } from './test-twin';

export interface AdminDeps {
  database: Database;
  clock: Clock;
}

function toUser(row: UserRow): User {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    kind: row.kind,
    status: row.status,
    groups: row.groups as Group[],
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    _id: row.id,
    userId: row.userId,
    name: row.name,
    prefix: row.prefix,
    livemode: !isTestApiKey(row.prefix),
    createdAt: iso(row.createdAt),
    lastUsedAt: row.lastUsedAt ? iso(row.lastUsedAt) : null,
    revokedAt: row.revokedAt ? iso(row.revokedAt) : null,
  };
}

const userNotFound = () => new NotFound('User not found');

async function requireUser(tx: Tx, ctx: RequestContext, id: string, forUpdate = false): Promise<UserRow> {
  const user = await userRepository(tx, ctx).find(id, { forUpdate });
  if (!user) throw userNotFound();
  return user;
}

/**
 * Refuses a change that would leave the organisation without an active administrator (oneself
 * included), naming the rule. The caller took lockAdministrators before reading the user.
 */
async function keepAnAdministrator(
  tx: Tx,
  ctx: RequestContext,
  user: UserRow,
  action: 'deactivate' | 'demote' | 'delete',
) {
  if (user.status !== 'active' || !user.groups.includes('administrator')) return;
  if ((await userRepository(tx, ctx).otherActiveAdministrators(user.id)) === 0) {
    throw new Conflict(`Cannot ${action} the organisation's last active administrator`, [
      {
        field: action === 'demote' ? 'groups' : 'userId',
        in: action === 'demote' ? 'body' : 'path',
        message:
          'the organisation must keep at least one active administrator: make another user an administrator first',
      },
    ]);
  }
}

/** Locks the organisation's administrators (see lockAdministrators), then reads the user for update. */
async function requireUserKeepingAdministrators(tx: Tx, ctx: RequestContext, id: string) {
  await userRepository(tx, ctx).lockAdministrators();
  return requireUser(tx, ctx, id, true);
}

export async function listUsers(deps: AdminDeps, ctx: RequestContext, query: WalkQuery = {}) {
  const { walk, answer } = walking('users', query);
  const { rows, total } = await inTenant(deps.database, ctx, (tx) => userRepository(tx, ctx).walk(walk));
  const { items, ...page } = answer(rows, total);
  return { users: items.map(toUser), ...page };
}

export async function getUser(deps: AdminDeps, ctx: RequestContext, id: string) {
  return toUser(await inTenant(deps.database, ctx, (tx) => requireUser(tx, ctx, id)));
}

export async function createUser(deps: AdminDeps, ctx: RequestContext, input: CreateUser) {
  const taken = () =>
    new Conflict(`A user with e-mail ${input.email} already exists`, [
      { field: 'email', in: 'body', message: 'is already used by another user' },
    ]);
  try {
    return await inTenant(deps.database, ctx, async (tx) => {
      const users = userRepository(tx, ctx);
      if (await users.emailTaken(input.email)) throw taken();
      const now = deps.clock.now();
      const row = await users.insert({
        id: newId(now.getTime()),
        email: input.email,
        name: input.name,
        kind: input.kind,
        status: 'active',
        groups: input.groups,
        createdAt: now,
        updatedAt: now,
      });
      return toUser(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_org_email_key')) throw taken();
    throw err;
  }
}

export async function updateUser(deps: AdminDeps, ctx: RequestContext, id: string, input: UpdateUser) {
  return inTenant(deps.database, ctx, async (tx) => {
    const demoting = input.groups !== undefined && !input.groups.includes('administrator');
    const user = demoting
      ? await requireUserKeepingAdministrators(tx, ctx, id)
      : await requireUser(tx, ctx, id, true);
    if (demoting) await keepAnAdministrator(tx, ctx, user, 'demote');
    const row = await userRepository(tx, ctx).update(id, { ...input, updatedAt: deps.clock.now() });
    return toUser(row!);
  });
}

/** Moves a user between active and deactivated; 409 when already there. Takes effect on the next request. */
export async function setUserStatus(
  deps: AdminDeps,
  ctx: RequestContext,
  id: string,
  status: 'active' | 'deactivated',
) {
  return inTenant(deps.database, ctx, async (tx) => {
    const user =
      status === 'deactivated'
        ? await requireUserKeepingAdministrators(tx, ctx, id)
        : await requireUser(tx, ctx, id, true);
    if (user.status === status) {
      throw Conflict.state(`User is already ${status}`, 'status', user.status);
    }
    if (status === 'deactivated') await keepAnAdministrator(tx, ctx, user, 'deactivate');
    const row = await userRepository(tx, ctx).update(id, { status, updatedAt: deps.clock.now() });
    return toUser(row!);
  });
}

/**
 * "Sign out everywhere": every browser session of the user ends at once, also in a browser whose request
 * is in flight; the user signs in again where they want to go on. Their API keys are not touched.
 */
export async function endUserSessions(deps: AdminDeps, ctx: RequestContext, id: string) {
  return inTenant(deps.database, ctx, async (tx) => {
    const ended = await userRepository(tx, ctx).endSessions(id);
    if (ended === null) throw new NotFound('User not found');
    await auditRepository(tx, ctx).record({
      action: 'user.signed_out',
      targetType: 'user',
      targetId: id,
      summary: { endedSessions: ended },
    });
    return { success: true as const, userId: id, endedSessions: ended };
  });
}

export async function deleteUser(deps: AdminDeps, ctx: RequestContext, id: string): Promise<void> {
  try {
    await inTenant(deps.database, ctx, async (tx) => {
      const user = await requireUserKeepingAdministrators(tx, ctx, id);
      if (user.id === ctx.userId) throw new Conflict('You cannot delete your own account');
      await keepAnAdministrator(tx, ctx, user, 'delete');
      await userRepository(tx, ctx).remove(id);
    });
  } catch (err) {
    if (isForeignKeyViolation(err, 'oauth_clients_service_user_fk')) {
      throw new Conflict(
        'The user is the service user of an OAuth client: give the client another service user, or delete it, first',
      );
    }
    throw err;
  }
}

export async function listApiKeys(
  deps: AdminDeps,
  ctx: RequestContext,
  filter: { userId?: string; includeRevoked: boolean; mode?: Mode } & WalkQuery,
) {
  if (filter.userId !== undefined && !isId(filter.userId))
    throw BadRequest.field('userId', 'is not a valid user id');
  const { walk, answer } = walking('apikeys', filter, {
    userId: filter.userId,
    includeRevoked: filter.includeRevoked,
    mode: filter.mode,
  });
  const { rows, total } = await inTenant(deps.database, ctx, async (tx) => {
    if (filter.userId !== undefined) await requireUser(tx, ctx, filter.userId);
    const now = deps.clock.now();
    const found = await inMode(tx, ctx, filter.mode, { make: false, now }, (c) =>
      apiKeyRepository(tx, c).list(filter, walk),
    );
    return found ?? { rows: [], total: 0 };
  });
  const { items, ...page } = answer(rows, total);
  return { apiKeys: items.map(toApiKey), ...page };
}

/**
 * Issues a key for a user of the organisation; the key itself is in this answer only. A test key
 * (`adk_test_…`) is a key of the same user in the organisation's test twin, made on first use.
 */
export async function createApiKey(
  deps: AdminDeps,
  ctx: RequestContext,
  userId: string,
  input: { name: string; mode?: Mode },
) {
  return inTenant(deps.database, ctx, async (tx) => {
    await requireUser(tx, ctx, userId);
    const now = deps.clock.now();
    const made = await inMode(tx, ctx, input.mode, { make: true, now }, async (c) =>
      issueApiKey(tx, c, userId, input.name, now, input.mode ?? (await modeOfCurrent(tx))),
    );
    return made!;
  });
}

export async function issueApiKey(
  tx: Tx,
  ctx: RequestContext,
  userId: string,
  name: string,
  now: Date,
  mode: Mode = 'live',
) {
  for (;;) {
    const generated = generateApiKey(mode);
    const row = await apiKeyRepository(tx, ctx).insert({
      id: newId(now.getTime()),
      userId,
      name,
      prefix: generated.lookupPrefix,
      secretHash: generated.secretHash,
      createdAt: now,
      createdBy: ctx.userId,
    });
    if (row) return { ...toApiKey(row), apiKey: generated.key };
  }
}

/** Revokes a key, live or (from a live organisation) one of its test twin's. */
export async function revokeApiKey(deps: AdminDeps, ctx: RequestContext, userId: string, keyId: string) {
  return inTenant(deps.database, ctx, async (tx) => {
    const now = deps.clock.now();
    const revoke = async (c: RequestContext) => {
      const keys = apiKeyRepository(tx, c);
      const key = await keys.find(userId, keyId, { forUpdate: true });
      if (!key) return undefined;
      if (key.revokedAt) throw Conflict.state('API key is already revoked', 'revokedAt', iso(key.revokedAt));
      return toApiKey((await keys.revoke(key.id, now))!);
    };
    const revoked =
      (await revoke(ctx)) ??
      ((await modeOfCurrent(tx)) === 'live'
        ? await inMode(tx, ctx, 'test', { make: false, now }, revoke)
        : undefined);
    if (!revoked) throw new NotFound('API key not found');
    return revoked;
  });
}

// The caller's organisation, for other modules: what they read of it and the one setting they change.

export type Organisation = NonNullable<
  Awaited<ReturnType<ReturnType<typeof organisationRepository>['find']>>
>;

/**
 * The caller's organisation (none: it does not exist, e.g. a CLI naming an unknown one);
 * `forUpdate` holds its row to the end of the transaction, for settings that must not change meanwhile.
 */
export function organisationOf(
  tx: Tx,
  ctx: RequestContext,
  opts: { forUpdate?: boolean } = {},
): Promise<Organisation | undefined> {
  return organisationRepository(tx, ctx).find(opts);
}

/** The organisation's name, as documents and messages show it ('' when it does not exist). */
export async function organisationName(tx: Tx, ctx: RequestContext): Promise<string> {
  return (await organisationRepository(tx, ctx).find())?.name ?? '';
}

/** Switches password sign-in for the organisation's staff (the caller checks a way in remains). */
export function setPasswordSignIn(tx: Tx, ctx: RequestContext, on: boolean): Promise<void> {
  return organisationRepository(tx, ctx).setPasswordSignIn(on);
}
