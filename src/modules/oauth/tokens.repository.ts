import { and, eq, isNull, sql } from 'drizzle-orm';
import { oauthCodes, oauthTokens } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import { type Queryable, queryRows } from '../../platform/db/database';

export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
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

/** A token by the hash of its value with its client's and user's state (SECURITY DEFINER lookup). */
export interface TokenHit {
  token_id: string;
  organisation_id: string;
  client_id: string;
  user_id: string;
  kind: 'access' | 'refresh';
  scopes: string[];
  expires_at: Date | string;
  revoked_at: Date | string | null;
  client_disabled_at: Date | string | null;
  user_status: string;
  user_groups: string[];
  auth_version: number;
  family_id: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  public_client_id: string;
  user_kind: string;
}

export async function findToken(q: Queryable, hash: string): Promise<TokenHit | undefined> {
  const [row] = await queryRows<TokenHit>(q, sql`SELECT * FROM actiondesk_find_oauth_token(${hash})`);
  return row;
}

export function oauthTokenRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(oauthTokens.organisationId, ctx.organisationId);
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
    /** Revokes every live token of a family (one consent's code and its refresh chain). */
    async revokeFamily(familyId: string, at: Date): Promise<number> {
      const rows = await q
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(and(org, eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt)))
        .returning({ id: oauthTokens.id });
      return rows.length;
    },
  };
}

export function oauthCodeRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(oauthCodes.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<OAuthCodeRow, 'organisationId' | 'usedAt'>): Promise<void> {
      await q.insert(oauthCodes).values({ ...row, organisationId: ctx.organisationId });
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
