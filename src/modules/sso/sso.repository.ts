import { and, asc, eq, sql } from 'drizzle-orm';
import { ssoIdentities, ssoProviders } from '../../db/schema';
import type { RowOf } from '../../db/schema/columns';
import { type Queryable, queryRows, type Tx } from '../../platform/db/database';
import { keysetColumnsOf, walkRows } from '../../platform/db/keyset';
import type { RequestContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import type { Walk } from '../../platform/lists/cursor';

export type SsoProviderRow = RowOf<typeof ssoProviders>;

export function ssoProviderRepository(q: Tx, ctx: RequestContext) {
  const org = eq(ssoProviders.organisationId, ctx.organisationId);
  return {
    async list(): Promise<SsoProviderRow[]> {
      return q
        .select()
        .from(ssoProviders)
        .where(org)
        .orderBy(asc(ssoProviders.createdAt), asc(ssoProviders.id));
    },
    /** Every row (oldest first), or one page of a walk by cursor. */
    walk(walk: Walk | null) {
      return walkRows<SsoProviderRow>(q, keysetColumnsOf(ssoProviders), org, walk);
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<SsoProviderRow | undefined> {
      if (!isId(id)) return undefined;
      const query = q
        .select()
        .from(ssoProviders)
        .where(and(org, eq(ssoProviders.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    async insert(row: Omit<SsoProviderRow, 'organisationId'>): Promise<SsoProviderRow> {
      const [created] = await q
        .insert(ssoProviders)
        .values({ ...row, organisationId: ctx.organisationId })
        .returning();
      return created!;
    },
    async update(
      id: string,
      change: Partial<Omit<SsoProviderRow, 'id' | 'organisationId'>>,
    ): Promise<SsoProviderRow | undefined> {
      const [row] = await q
        .update(ssoProviders)
        .set(change)
        .where(and(org, eq(ssoProviders.id, id)))
        .returning();
      return row;
    },
    async remove(id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const rows = await q
        .delete(ssoProviders)
        .where(and(org, eq(ssoProviders.id, id)))
        .returning({ id: ssoProviders.id });
      return rows.length > 0;
    },
  };
}

export type SsoIdentityRow = typeof ssoIdentities.$inferSelect;

/** Staff users' accounts at the organisation's sign-in providers (by the provider's subject). */
export function ssoIdentityRepository(q: Tx, ctx: RequestContext) {
  const org = eq(ssoIdentities.organisationId, ctx.organisationId);
  return {
    async findBySubject(providerId: string, subject: string): Promise<SsoIdentityRow | undefined> {
      const [row] = await q
        .select()
        .from(ssoIdentities)
        .where(and(org, eq(ssoIdentities.providerId, providerId), eq(ssoIdentities.subject, subject)));
      return row;
    },
    async listOfProvider(providerId: string): Promise<SsoIdentityRow[]> {
      return q
        .select()
        .from(ssoIdentities)
        .where(and(org, eq(ssoIdentities.providerId, providerId)));
    },
    async findByUser(providerId: string, userId: string): Promise<SsoIdentityRow | undefined> {
      const [row] = await q
        .select()
        .from(ssoIdentities)
        .where(and(org, eq(ssoIdentities.providerId, providerId), eq(ssoIdentities.userId, userId)));
      return row;
    },
    /** Links the user to the provider's subject, or records the sign-in of the existing link. */
    async link(row: Omit<SsoIdentityRow, 'organisationId'>): Promise<void> {
      await q
        .insert(ssoIdentities)
        .values({ ...row, organisationId: ctx.organisationId })
        .onConflictDoUpdate({
          target: [ssoIdentities.organisationId, ssoIdentities.providerId, ssoIdentities.subject],
          set: { email: row.email, lastSignInAt: row.lastSignInAt },
        });
    },
  };
}

/** A sign-in provider a browser may use, before it is signed in (from the e-mail address). */
export interface ProviderChoice {
  organisation_id: string;
  organisation_name: string;
  provider_id: string;
  provider_name: string;
  provider_type: 'google' | 'microsoft' | 'oidc';
}

/** Enabled providers for an e-mail address across organisations (SECURITY DEFINER lookup; at most 20). */
export function findProvidersForEmail(q: Queryable, email: string): Promise<ProviderChoice[]> {
  return queryRows<ProviderChoice>(q, sql`SELECT * FROM actiondesk_find_sso_providers(${email})`);
}
