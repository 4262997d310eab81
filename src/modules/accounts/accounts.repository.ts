import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordTokens, signInFailures } from '../../db/schema';
import { type Queryable, queryRows, type Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

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

/** How many failures a key has in the window, and when the last one was. */
export interface FailureTally {
  count: number;
  last: Date | null;
}

/**
 * Failed sign-ins over a sliding window: per account (e-mail) and per address for attempts without a
 * trusted device, per device for attempts with one.
 */
export function signInFailureRepository(q: Queryable) {
  return {
    /** Records an attempt as failed until shown otherwise; its id, to take it back. */
    async record(row: {
      email: string;
      address: string;
      at: Date;
      device: string | null;
      trusted: boolean;
    }): Promise<number> {
      const [inserted] = await q.insert(signInFailures).values(row).returning({ id: signInFailures.id });
      return inserted!.id;
    },
    async remove(id: number): Promise<void> {
      await q.delete(signInFailures).where(eq(signInFailures.id, id));
    },
    /** Failures that came with this device cookie since `since` (trusted or not). */
    async deviceCount(device: string, since: Date): Promise<number> {
      const [row] = await queryRows<{ n: string }>(
        q,
        sql`SELECT count(*) AS n FROM ${signInFailures} WHERE ${signInFailures.device} = ${device} AND ${signInFailures.at} > ${since.toISOString()}::timestamptz`,
      );
      return Number(row?.n ?? 0);
    },
    /**
     * The failures since `since` that bear on an attempt (every one but the attempt's own row, attempts
     * still being checked included): of the account and of the address without a trusted device, and
     * of the device.
     */
    async tallies(key: {
      email: string;
      address: string;
      device: string | null;
      since: Date;
      except: number;
    }): Promise<{ account: FailureTally; address: FailureTally; device: FailureTally }> {
      const f = signInFailures;
      const [row] = await queryRows<Record<string, string | Date | null>>(
        q,
        sql`SELECT count(*) FILTER (WHERE ${f.email} = ${key.email} AND NOT ${f.trusted}) AS account_n,
                   max(${f.at}) FILTER (WHERE ${f.email} = ${key.email} AND NOT ${f.trusted}) AS account_last,
                   count(*) FILTER (WHERE ${f.address} = ${key.address} AND NOT ${f.trusted}) AS address_n,
                   max(${f.at}) FILTER (WHERE ${f.address} = ${key.address} AND NOT ${f.trusted}) AS address_last,
                   count(*) FILTER (WHERE ${f.device} = ${key.device}) AS device_n,
                   max(${f.at}) FILTER (WHERE ${f.device} = ${key.device}) AS device_last
              FROM ${f}
             WHERE ${f.at} > ${key.since.toISOString()}::timestamptz AND ${f.id} <> ${key.except}
               AND (${f.email} = ${key.email} OR ${f.address} = ${key.address} OR ${f.device} = ${key.device})`,
      );
      const tally = (name: string): FailureTally => {
        const last = row?.[`${name}_last`];
        return { count: Number(row?.[`${name}_n`] ?? 0), last: last ? new Date(last) : null };
      };
      return { account: tally('account'), address: tally('address'), device: tally('device') };
    },
    /**
     * After a successful sign-in, the failures it explains go: those of the device cookie it came
     * with; without a trusted device, also the account's from this address (the user's own typos).
     * A trusted device's success forgives no one else's failures.
     */
    async forgive(key: {
      email: string;
      address: string;
      device: string | null;
      trusted: boolean;
    }): Promise<void> {
      const f = signInFailures;
      const typos = sql`(${f.email} = ${key.email} AND ${f.address} = ${key.address} AND NOT ${f.trusted})`;
      const ofDevice = sql`${f.device} = ${key.device}`;
      await q.delete(f).where(key.trusted ? ofDevice : sql`${typos} OR ${ofDevice}`);
    },
    /** Failures older than the window are of no use (maintenance); at most `limit`, the count removed. */
    async prune(before: Date, limit = 5_000): Promise<number> {
      const rows = await queryRows<{ id: number }>(
        q,
        sql`DELETE FROM ${signInFailures} WHERE ${signInFailures.id} IN (
              SELECT ${signInFailures.id} FROM ${signInFailures}
               WHERE ${signInFailures.at} < ${before.toISOString()}::timestamptz LIMIT ${limit})
            RETURNING ${signInFailures.id}`,
      );
      return rows.length;
    },
  };
}

export type PasswordTokenRow = typeof passwordTokens.$inferSelect;

export function passwordTokenRepository(q: Tx, ctx: RequestContext) {
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
