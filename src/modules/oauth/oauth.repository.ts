import { and, asc, eq } from 'drizzle-orm';
import { oauthClients } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import type { Tx } from '../../platform/db/database';
import { keysetColumnsOf, walkRows } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Walk } from '../../platform/lists/cursor';

export type OAuthClientRow = RowOf<typeof oauthClients>;

export function oauthClientRepository(q: Tx, ctx: RequestContext) {
  const org = eq(oauthClients.organisationId, ctx.organisationId);
  return {
    async list(): Promise<OAuthClientRow[]> {
      return q
        .select()
        .from(oauthClients)
        .where(org)
        .orderBy(asc(oauthClients.createdAt), asc(oauthClients.id));
    },
    /** Every row (oldest first), or one page of a walk by cursor. */
    walk(walk: Walk | null) {
      return walkRows<OAuthClientRow>(q, keysetColumnsOf(oauthClients), org, walk);
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<OAuthClientRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(oauthClients)
        .where(and(org, eq(oauthClients.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async insert(row: Omit<OAuthClientRow, 'organisationId'>): Promise<OAuthClientRow> {
      const [created] = await q
        .insert(oauthClients)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return created!;
    },
    async update(
      id: string,
      change: Partial<Pick<OAuthClientRow, 'secretHash' | 'secretRotatedAt' | 'disabledAt' | 'updatedAt'>>,
    ): Promise<OAuthClientRow | undefined> {
      const [row] = await q
        .update(oauthClients)
        .set(change)
        .where(and(org, eq(oauthClients.id, id)))
        .returning();
      return row;
    },
  };
}
