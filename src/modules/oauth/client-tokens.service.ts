import { inTenant } from '../../platform/db/tenant';
import type { RequestContext } from '../../platform/kernel/context';
import { NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { iso, isoOrNull } from '../../platform/kernel/schemas';
import { type WalkQuery, walking } from '../../platform/lists/cursor';
import { oauthClientRepository } from './oauth.repository';
import type { ClientToken } from './oauth.schemas';
import type { OAuthDeps } from './oauth.service';
import { oauthTokenRepository } from './tokens.repository';

/** The client's live tokens (not revoked, not expired), newest first, with who they act for. */
export async function listClientTokens(
  deps: OAuthDeps,
  ctx: RequestContext,
  clientId: string,
  query: WalkQuery = {},
) {
  const { walk, answer } = walking('oauthtokens', query, { clientId });
  return inTenant(deps.database, ctx, async (tx) => {
    if (!(await oauthClientRepository(tx, ctx).find(clientId))) throw new NotFound('OAuth client not found');
    const repo = oauthTokenRepository(tx, ctx);
    const now = deps.clock.now();
    const rows = await repo.liveOfClient(clientId, now, 500, walk);
    const counted = rows.length < 500 && !walk ? rows.length : await repo.countLiveOfClient(clientId, now);
    const { items, ...page } = answer(rows, counted);
    const tokens: ClientToken[] = items.map((r) => ({
      _id: r.id,
      kind: r.kind,
      userId: r.userId,
      userName: r.userName,
      scopes: r.scopes,
      createdAt: iso(r.createdAt),
      expiresAt: iso(r.expiresAt),
      lastUsedAt: isoOrNull(r.lastUsedAt),
    }));
    // The total is every live token of the client, counted exactly (a client has few).
    return { tokens, ...page, total: counted, totalIsEstimate: false };
  });
}

/**
 * Revokes one live token of the client — a refresh token with everything its consent issued — or, with
 * no token named, every live token of the client. Answers how many were revoked.
 */
export async function revokeClientTokens(
  deps: OAuthDeps,
  ctx: RequestContext,
  clientId: string,
  tokenId?: string,
) {
  return inTenant(deps.database, ctx, async (tx) => {
    if (!(await oauthClientRepository(tx, ctx).find(clientId))) throw new NotFound('OAuth client not found');
    const tokens = oauthTokenRepository(tx, ctx);
    const now = deps.clock.now();
    if (tokenId === undefined) return { revoked: await tokens.revokeAllOfClient(clientId, now) };
    const live = isId(tokenId) ? await tokens.findLive(clientId, tokenId, now) : undefined;
    if (!live) throw new NotFound('No live token with this id for this client');
    const revoked =
      live.kind === 'refresh' && live.familyId
        ? await tokens.revokeFamily(live.familyId, now)
        : Number(await tokens.revoke(live.id, now));
    return { revoked };
  });
}
