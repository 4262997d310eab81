import { sql } from 'drizzle-orm';
import { oauthTokens } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import { type Queryable, queryRows } from '../../platform/db/database';

export type OAuthTokenRow = typeof oauthTokens.$inferSelect;

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

export function oauthTokenRepository(q: Queryable, ctx: RequestContext) {
  return {
    async insert(rows: Omit<OAuthTokenRow, 'organisationId' | 'lastUsedAt' | 'revokedAt'>[]): Promise<void> {
      if (rows.length === 0) return;
      await q.insert(oauthTokens).values(rows.map((r) => ({ ...r, organisationId: ctx.organisationId })));
    },
  };
}
