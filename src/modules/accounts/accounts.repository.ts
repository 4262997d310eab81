import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordTokens, signInFailures } from '../../db/schema';
import type { RequestContext } from '../../platform/context';
import { type Queryable, queryRows } from '../../platform/db/database';

/** A staff account that may sign in with this e-mail (any organisation). */
export interface LoginCandidate {
  organisation_id: string;
  organisation_name: string;
  user_id: string;
  user_name: string;
  password_hash: string | null;
  user_status: 'active' | 'deactivated';
  user_groups: string[];
  /** The organisation lets staff sign in with a password (else only administrators: break-glass). */
  password_sign_in: boolean;
}

/** Staff accounts with this e-mail across organisations (SECURITY DEFINER lookup; at most 20). */
export function findLoginCandidates(q: Queryable, email: string): Promise<LoginCandidate[]> {
  return queryRows<LoginCandidate>(q, sql`SELECT * FROM actiondesk_find_staff_logins(${email})`);
}

export interface PasswordTokenHit {
  token_id: string;
  organisation_id: string;
  user_id: string;
  expires_at: Date | string;
  used_at: Date | string | null;
}

/** A password link by the hash of its token, before the organisation is known. */
export async function findPasswordToken(q: Queryable, hash: string): Promise<PasswordTokenHit | undefined> {
  const [row] = await queryRows<PasswordTokenHit>(
    q,
    sql`SELECT * FROM actiondesk_find_password_token(${hash})`,
  );
  return row;
}

/** Failed sign-ins: counted per account and per address over a sliding window. */
export function signInFailureRepository(q: Queryable) {
  return {
    /** Records an attempt as failed until shown otherwise; its id, to take it back. */
    async record(email: string, address: string, at: Date): Promise<number> {
      const [row] = await q
        .insert(signInFailures)
        .values({ email, address, at })
        .returning({ id: signInFailures.id });
      return row!.id;
    },
    async remove(id: number): Promise<void> {
      await q.delete(signInFailures).where(eq(signInFailures.id, id));
    },
    async count(email: string, address: string, since: Date): Promise<{ account: number; address: number }> {
      const [row] = await queryRows<{ account: string; address: string }>(
        q,
        sql`SELECT (SELECT count(*) FROM ${signInFailures} WHERE ${signInFailures.email} = ${email} AND ${signInFailures.at} > ${since.toISOString()}::timestamptz) AS account,
                   (SELECT count(*) FROM ${signInFailures} WHERE ${signInFailures.address} = ${address} AND ${signInFailures.at} > ${since.toISOString()}::timestamptz) AS address`,
      );
      return { account: Number(row?.account ?? 0), address: Number(row?.address ?? 0) };
    },
    /** The oldest failure of the account in the window: the lock lifts when it leaves the window. */
    async oldestSince(email: string, since: Date): Promise<Date | null> {
      const [row] = await queryRows<{ at: Date | string | null }>(
        q,
        sql`SELECT min(${signInFailures.at}) AS at FROM ${signInFailures} WHERE ${signInFailures.email} = ${email} AND ${signInFailures.at} > ${since.toISOString()}::timestamptz`,
      );
      return row?.at ? new Date(row.at) : null;
    },
    /** After a successful sign-in the account's count starts again. */
    async clear(email: string): Promise<void> {
      await q.delete(signInFailures).where(eq(signInFailures.email, email));
    },
    /** Failures older than the window are of no use (maintenance). */
    async prune(before: Date): Promise<void> {
      await q.delete(signInFailures).where(sql`${signInFailures.at} < ${before.toISOString()}::timestamptz`);
    },
  };
}

export type PasswordTokenRow = typeof passwordTokens.$inferSelect;

export function passwordTokenRepository(q: Queryable, ctx: RequestContext) {
  const org = eq(passwordTokens.organisationId, ctx.organisationId);
  return {
    async insert(row: Omit<PasswordTokenRow, 'organisationId' | 'usedAt'>): Promise<void> {
      await q.insert(passwordTokens).values({ ...row, organisationId: ctx.organisationId });
    },
    async find(id: string, opts: { forUpdate?: boolean } = {}): Promise<PasswordTokenRow | undefined> {
      const query = q
        .select()
        .from(passwordTokens)
        .where(and(org, eq(passwordTokens.id, id)));
      const [row] = opts.forUpdate ? await query.for('update') : await query;
      return row;
    },
    /** Spends one link; false when it was already spent (a second use). */
    async use(id: string, at: Date): Promise<boolean> {
      const rows = await q
        .update(passwordTokens)
        .set({ usedAt: at })
        .where(and(org, eq(passwordTokens.id, id), isNull(passwordTokens.usedAt)))
        .returning({ id: passwordTokens.id });
      return rows.length > 0;
    },
    /** Whether a link was made for the user since `since` (forgot-password requests are spaced out). */
    async createdSince(userId: string, since: Date): Promise<boolean> {
      const [row] = await q
        .select({ id: passwordTokens.id })
        .from(passwordTokens)
        .where(and(org, eq(passwordTokens.userId, userId), gt(passwordTokens.createdAt, since)))
        .limit(1);
      return row !== undefined;
    },
    /** A new link replaces the user's earlier unused ones. */
    async retireOpen(userId: string, at: Date): Promise<void> {
      await q
        .update(passwordTokens)
        .set({ usedAt: at })
        .where(
          and(
            org,
            eq(passwordTokens.userId, userId),
            isNull(passwordTokens.usedAt),
            gt(passwordTokens.expiresAt, at),
          ),
        );
    },
  };
}

/** Deletes browser sessions past their expiry (run now and then, e.g. at a sign-in). */
export async function pruneExpiredSessions(q: Queryable, now: Date): Promise<void> {
  await q.execute(sql`DELETE FROM staff_sessions WHERE expire < ${now.toISOString()}::timestamptz`);
}
