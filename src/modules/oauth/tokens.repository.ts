import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { oauthCodes, oauthTokens, users } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { type Queryable, queryRows, type Tx } from '../../platform/db/database';
import { keysetSql } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import type { Walk } from '../../platform/lists/cursor';

export type OAuthTokenRow = RowOf<typeof oauthTokens>;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;

/** A client by its public client_id, across organisations (SECURITY DEFINER lookup, token endpoint). */
export interface ClientHit {
  id: string;
  organisation_id: string;
  type: 'confidential' | 'public';
  secret_hash: string | null;
  grants: string[];
  scopes: string[];
  redirect_uris: string[];
  service_user_id: string | null;
  disabled_at: Date | string | null;
}

export async function findClientById(q: Queryable, clientId: string): Promise<ClientHit | undefined> {
  const [row] = await queryRows<ClientHit>(q, sql`SELECT * FROM actiondesk_find_oauth_client(${clientId})`);
  return row;
}

/** An authorization code by the hash of its value, across organisations (SECURITY DEFINER lookup). */
export interface CodeHit {
  id: string;
  organisation_id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  redirect_uri_given: boolean;
  scopes: string[];
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Date | string;
  used_at: Date | string | null;
}

export async function findCode(q: Queryable, hash: string): Promise<CodeHit | undefined> {
  const [row] = await queryRows<CodeHit>(q, sql`SELECT * FROM actiondesk_find_oauth_code(${hash})`);
  return row;
}

export function oauthTokenRepository(q: Tx, ctx: RequestContext) {
  const org = eq(oauthTokens.organisationId, ctx.organisationId);
  const live = (clientId: string, now: Date) =>
    and(
      org,
      eq(oauthTokens.clientId, clientId),
      isNull(oauthTokens.revokedAt),
      gt(oauthTokens.expiresAt, now),
    );
  return {
    async insert(rows: Omit<OAuthTokenRow, 'organisationId' | 'lastUsedAt' | 'revokedAt'>[]): Promise<void> {
      if (rows.length === 0) return;
      await q.insert(oauthTokens).values(rows.map((r) => ({ ...r, organisationId: ctx.organisationId })));
    },
    /** Revokes one live token; false when it was already revoked (a second use of a refresh token). */
    async revoke(id: string, at: Date): Promise<boolean> {
      const rows = await q
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(and(org, eq(oauthTokens.id, id), isNull(oauthTokens.revokedAt)))
        .returning({ id: oauthTokens.id });
      return rows.length > 0;
    },
    /**
     * The client's live tokens, newest first (at most `limit`), or one page of a walk by cursor (`limit`
     * + 1 rows), with the name of the user they act for.
     */
    async liveOfClient(clientId: string, now: Date, limit = 500, walk: Walk | null = null) {
      const k = walk
        ? keysetSql(walk.keyset, {
            table: oauthTokens,
            created: oauthTokens.createdAt,
            updated: oauthTokens.createdAt,
            txid: oauthTokens.changeTxid,
            id: oauthTokens.id,
          })
        : null;
      return q
        .select({
          id: oauthTokens.id,
          kind: oauthTokens.kind,
          userId: oauthTokens.userId,
          userName: users.name,
          scopes: oauthTokens.scopes,
          familyId: oauthTokens.familyId,
          createdAt: oauthTokens.createdAt,
          expiresAt: oauthTokens.expiresAt,
          lastUsedAt: oauthTokens.lastUsedAt,
          changeTxid: oauthTokens.changeTxid,
        })
        .from(oauthTokens)
        .innerJoin(
          users,
          and(eq(users.organisationId, oauthTokens.organisationId), eq(users.id, oauthTokens.userId)),
        )
        .where(and(live(clientId, now), k?.where))
        .orderBy(...(k?.orderBy ?? [desc(oauthTokens.createdAt), desc(oauthTokens.id)]))
        .limit(walk ? walk.limit + 1 : limit);
    },
    async findLive(clientId: string, id: string, now: Date) {
      const [row] = await q
        .select({ id: oauthTokens.id, kind: oauthTokens.kind, familyId: oauthTokens.familyId })
        .from(oauthTokens)
        .where(and(live(clientId, now), eq(oauthTokens.id, id)));
      return row;
    },
    async countLiveOfClient(clientId: string, now: Date): Promise<number> {
      const [row] = await q
        .select({ n: sql<number>`count(*)::int` })
        .from(oauthTokens)
        .where(live(clientId, now));
      return row?.n ?? 0;
    },
    /** Revokes every live token of the client, and spends its unused codes; answers how many tokens. */
    async revokeAllOfClient(clientId: string, at: Date): Promise<number> {
      await q
        .update(oauthCodes)
        .set({ usedAt: at, familyRevokedAt: at })
        .where(
          and(
            eq(oauthCodes.organisationId, ctx.organisationId),
            eq(oauthCodes.clientId, clientId),
            isNull(oauthCodes.usedAt),
          ),
        );
      const rows = await q
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(live(clientId, at))
        .returning({ id: oauthTokens.id });
      return rows.length;
    },
    /**
     * Revokes a family (one consent's code and its refresh chain): first its code row is marked — so no
     * token is added to it later (see oauthCodeRepository.familyAlive) — then every live token of it.
     */
    async revokeFamily(familyId: string, at: Date): Promise<number> {
      await q
        .update(oauthCodes)
        .set({ familyRevokedAt: at })
        .where(
          and(
            eq(oauthCodes.organisationId, ctx.organisationId),
            eq(oauthCodes.id, familyId),
            isNull(oauthCodes.familyRevokedAt),
          ),
        );
      const rows = await q
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(and(org, eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt)))
        .returning({ id: oauthTokens.id });
      return rows.length;
    },
  };
}

export function oauthCodeRepository(q: Tx, ctx: RequestContext) {
  const org = eq(oauthCodes.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<OAuthCodeRow, 'organisationId' | 'usedAt' | 'familyRevokedAt'>): Promise<void> {
      await q.insert(oauthCodes).values({ ...row, organisationId: ctx.organisationId });
    },
    /**
     * Whether tokens may still be added to the family (the consent of this code): its code row exists
     * and is not revoked. Locks the row (FOR SHARE) until the transaction ends, so a revocation waits.
     */
    async familyAlive(familyId: string): Promise<boolean> {
      const [row] = await q
        .select({ revokedAt: oauthCodes.familyRevokedAt })
        .from(oauthCodes)
        .where(and(org, eq(oauthCodes.id, familyId)))
        .for('share');
      return row !== undefined && row.revokedAt === null;
    },
    /** Spends a code: true for the one request that does; every later one gets false. */
    async spend(id: string, at: Date): Promise<boolean> {
      const rows = await q
        .update(oauthCodes)
        .set({ usedAt: at })
        .where(and(org, eq(oauthCodes.id, id), isNull(oauthCodes.usedAt)))
        .returning({ id: oauthCodes.id });
      return rows.length > 0;
    },
  };
}
