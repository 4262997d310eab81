import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, organisations, users } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { Language } from '../../i18n/languages';
import type { Tx } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { keysetColumnsOf, walkRows } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { permissionsOf } from '../../platform/kernel/permissions';
import type { Walk } from '../../platform/lists/cursor';
import type { SessionEndReason } from '../../platform/web/sessions';
import { endSessionsOf } from '../../platform/web/sessions.repository';

export type UserRow = RowOf<typeof users>;
export type ApiKeyRow = RowOf<typeof apiKeys>;

export function userRepository(q: Tx, ctx: RequestContext) {
  const org = eq(users.organisationId, ctx.organisationId);
  return {
    async list(): Promise<UserRow[]> {
      return q.select().from(users).where(org).orderBy(asc(users.createdAt), asc(users.id));
    },
    /** Every user (oldest first), or one page of a walk by cursor. */
    walk(walk: Walk | null) {
      return walkRows<UserRow>(q, keysetColumnsOf(users), org, walk);
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<UserRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(users)
        .where(and(org, eq(users.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await q
        .select()
        .from(users)
        .where(and(org, sql`lower(${users.email}) = lower(${email})`));
      return row;
    },
    async emailTaken(email: string): Promise<boolean> {
      const [row] = await q
        .select({ id: users.id })
        .from(users)
        .where(and(org, sql`lower(${users.email}) = lower(${email})`));
      return row !== undefined;
    },
    /** The organisation's active administrators: their e-mail and chosen language (to tell them things). */
    async administrators(): Promise<{ email: string; language: Language | null }[]> {
      return q
        .select({ email: users.email, language: users.language })
        .from(users)
        .where(and(org, eq(users.status, 'active'), sql`'administrator' = ANY(${users.groups})`))
        .orderBy(asc(users.createdAt));
    },
    /**
     * Serialises, within the organisation, every change that may take an administrator away (deactivate,
     * demote, delete, a directory sync), until the transaction ends: two such changes made at once see
     * each other, so they cannot both pass the last-administrator rule, and they never deadlock on each
     * other's rows. Taken before any user row is locked.
     */
    async lockAdministrators(): Promise<void> {
      await q.execute(
        sql`SELECT pg_advisory_xact_lock(hashtextextended('actiondesk.administrators:' || ${ctx.organisationId}::text, 0))`,
      );
    },
    /** Other active administrators than `exceptId` (under lockAdministrators, as committed). */
    async otherActiveAdministrators(exceptId: string): Promise<number> {
      const rows = await q
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            org,
            eq(users.status, 'active'),
            sql`'administrator' = ANY(${users.groups})`,
            sql`${users.id} <> ${exceptId}`,
          ),
        );
      return rows.length;
    },
    async insert(
      row: Omit<
        UserRow,
        | 'organisationId'
        | 'authVersion'
        | 'passwordHash'
        | 'passwordChangedAt'
        | 'sessionsEndedAt'
        | 'language'
        | 'notify'
      >,
    ): Promise<UserRow> {
      const [created] = await q
        .insert(users)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return created!;
    },
    /**
     * Any change here may narrow what the user's credentials allow, so auth_version is bumped. One that
     * takes access away — deactivation, or groups that allow less than before — ends every browser
     * session of the user at once (their API keys and tokens follow the user's state on each use).
     */
    async update(id: string, change: Partial<Pick<UserRow, 'name' | 'groups' | 'status' | 'updatedAt'>>) {
      let ends: SessionEndReason | null = change.status === 'deactivated' ? 'deactivated' : null;
      if (change.groups && !ends) {
        const before = await this.find(id, { forUpdate: true });
        const now = permissionsOf(change.groups);
        if ([...permissionsOf(before?.groups ?? [])].some((p) => !now.has(p))) ends = 'access';
      }
      const [row] = await q
        .update(users)
        .set({
          ...change,
          authVersion: sql`${users.authVersion} + 1`,
          ...(ends ? { sessionsEndedAt: ctx.at } : {}),
        })
        .where(and(org, eq(users.id, id)))
        .returning();
      if (row && ends) await endSessionsOf(q, ctx.organisationId, id, ends);
      return row;
    },
    /**
     * "Sign out everywhere": every browser session of the user ends now, also one whose request is in
     * flight (it is refused on its next request); answers how many were open, or null for no such user.
     */
    async endSessions(id: string): Promise<number | null> {
      const rows = await q
        .update(users)
        .set({ sessionsEndedAt: ctx.at })
        .where(and(org, eq(users.id, id)))
        .returning({ id: users.id });
      if (rows.length === 0) return null;
      return endSessionsOf(q, ctx.organisationId, id, 'revoked');
    },
    /**
     * Sets (or clears) the password hash. Sessions that signed in before `at` end on their next request;
     * API keys are not affected (auth_version is not bumped).
     */
    async setPassword(id: string, hash: string | null, at: Date): Promise<boolean> {
      const rows = await q
        .update(users)
        .set({ passwordHash: hash, passwordChangedAt: at, updatedAt: at })
        .where(and(org, eq(users.id, id)))
        .returning({ id: users.id });
      return rows.length > 0;
    },
    async remove(id: string): Promise<boolean> {
      await endSessionsOf(q, ctx.organisationId, id, 'deleted');
      const rows = await q
        .delete(users)
        .where(and(org, eq(users.id, id)))
        .returning({ id: users.id });
      return rows.length > 0;
    },
  };
}

export function apiKeyRepository(q: Tx, ctx: RequestContext) {
  const org = eq(apiKeys.organisationId, ctx.organisationId);
  return {
    /** The keys (oldest first), or one page of a walk by cursor; a key changes when it is revoked. */
    list(filter: { userId?: string; includeRevoked: boolean }, walk: Walk | null = null) {
      return walkRows<ApiKeyRow>(
        q,
        {
          table: apiKeys,
          created: apiKeys.createdAt,
          updated: sql`greatest(${apiKeys.createdAt}, ${apiKeys.revokedAt})`,
          txid: apiKeys.changeTxid,
          id: apiKeys.id,
        },
        and(
          org,
          filter.userId ? eq(apiKeys.userId, filter.userId) : undefined,
          filter.includeRevoked ? undefined : isNull(apiKeys.revokedAt),
        ),
        walk,
      );
    },
    async find(
      userId: string,
      id: string,
      opts: { forUpdate?: boolean } = {},
    ): Promise<ApiKeyRow | undefined> {
      if (!isId(id) || !isId(userId)) return undefined;
      const query = q
        .select()
        .from(apiKeys)
        .where(and(org, eq(apiKeys.userId, userId), eq(apiKeys.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    /** Undefined when the lookup prefix is already taken (about one in 2^47): generate another. */
    async insert(
      row: Omit<ApiKeyRow, 'organisationId' | 'lastUsedAt' | 'revokedAt'>,
    ): Promise<ApiKeyRow | undefined> {
      // Prefixes are unique across organisations (credential_keys, migration 0038), which ON CONFLICT
      // cannot see: a savepoint keeps the transaction usable when the prefix is taken.
      await q.execute(sql`SAVEPOINT api_key_insert`);
      try {
        const [created] = await q
          .insert(apiKeys)
          .values({ ...row, organisationId: ctx.organisationId })
          .returning();
        await q.execute(sql`RELEASE SAVEPOINT api_key_insert`);
        return created;
      } catch (err) {
        await q.execute(sql`ROLLBACK TO SAVEPOINT api_key_insert`);
        if (isUniqueViolation(err, 'api_keys_prefix_key')) return undefined;
        throw err;
      }
    },
    async revoke(id: string, at: Date): Promise<ApiKeyRow | undefined> {
      const [row] = await q
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(org, eq(apiKeys.id, id)))
        .returning();
      return row;
    },
  };
}

export function organisationRepository(q: Tx, ctx: RequestContext) {
  return {
    async insert(name: string, createdAt: Date) {
      const [row] = await q
        .insert(organisations)
        .values({ id: ctx.organisationId, name, createdAt })
        .returning();
      return row!;
    },
    /** `forUpdate`: held to the end of the transaction (settings that must not change meanwhile). */
    async find(opts: { forUpdate?: boolean } = {}) {
      const query = q.select().from(organisations).where(eq(organisations.id, ctx.organisationId));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async setApiRateLimit(limit: number | null): Promise<void> {
      await q
        .update(organisations)
        .set({ apiRateLimit: limit })
        .where(eq(organisations.id, ctx.organisationId));
    },
    async setPasswordSignIn(on: boolean): Promise<void> {
      await q
        .update(organisations)
        .set({ passwordSignIn: on })
        .where(eq(organisations.id, ctx.organisationId));
    },
  };
}

/** A user's own settings on the desk: they change nothing the user may do (no auth_version bump). */
export async function updateUserPreferences(
  q: Tx,
  ctx: RequestContext,
  id: string,
  change: Partial<Pick<UserRow, 'language' | 'notify' | 'updatedAt'>>,
): Promise<UserRow | undefined> {
  const [row] = await q
    .update(users)
    .set(change)
    .where(and(eq(users.organisationId, ctx.organisationId), eq(users.id, id)))
    .returning();
  return row;
}
