import { createHash, randomBytes } from 'node:crypto';
import type { LinkProblem, PasswordRule } from '../../i18n/staff-password';
import type { SignInRefusal } from '../../i18n/staff-signin';
import { auditRepository } from '../../platform/audit/audit.repository';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { BadRequest, Conflict, NotFound } from '../../platform/kernel/errors';
import { isId, newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import type { RetentionStep } from '../../platform/ops/retention';
import { organisationOf, setUserPassword, userByEmail, userById } from '../organisations';
import { passwordLinkJob, passwordLinkSealContext } from './accounts.jobs';
import {
  findLoginCandidates,
  findPasswordToken,
  passwordTokenRepository,
  pruneExpiredSessions,
  signInFailureRepository,
} from './accounts.repository';
import { trustedDevice } from './devices';
import { hashPassword, passwordMatches, passwordProblem, passwordRule } from './passwords';
import { DEVICE_DISTRUST_AFTER, FREE_FAILURES, SIGN_IN_WINDOW_MS, waitFor } from './throttle';

export interface AccountsDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  /** How long an e-mailed password link works. */
  passwordLinkMs: number;
}

export type SignInOutcome =
  | { kind: 'signed-in'; organisationId: string; userId: string; breakGlass: boolean }
  | { kind: 'choose'; organisations: { id: string; name: string }[] }
  | { kind: 'refused'; refusal: SignInRefusal }
  | { kind: 'limited'; retryAfterSeconds: number };

const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Checks an e-mail and password. Wrong ones slow later attempts down (throttle.ts): an attempt that
 * comes too soon is answered with the seconds to wait, its password unchecked; nothing is locked. A
 * browser that signed in to the account before (its device cookie) is slowed only by its own failures.
 * An e-mail that matches no account costs the same time as a wrong password and gets the same answer;
 * so does the right password of an account whose organisation signs in with single sign-on only. The
 * same e-mail may have an account in several organisations: when the password fits more than one, the
 * user picks.
 */
export async function signIn(
  deps: AccountsDeps,
  input: {
    email: string;
    password: string;
    organisationId?: string;
    /** The client's address as counted (IPv6 by its /56 network). */
    address: string;
    /** The client's address as recorded (break-glass audit); `address` when left out. */
    clientAddress?: string;
    /** The browser's device cookie. */
    device?: string;
  },
): Promise<SignInOutcome> {
  const email = normalEmail(input.email);
  const now = deps.clock.now();
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const failures = signInFailureRepository(deps.database.db);
  const candidates = email.length <= 320 ? await findLoginCandidates(deps.database.db, email) : [];
  // The same e-mail in several organisations: a sign-in to one says nothing about guesses at another,
  // so a browser's trust and a success's forgiveness are only for an e-mail with one account.
  const single = candidates.length <= 1;
  const device = single ? (trustedDevice(deps.box, input.device, email, now) ?? null) : null;
  // A device cookie that keeps failing is no longer trusted: its attempts count like a stranger's.
  const trusted = device !== null && (await failures.deviceCount(device, since)) < DEVICE_DISTRUST_AFTER;
  // The attempt is counted before the password is checked, so attempts sent at the same moment cannot
  // all pass on the same old count; it is taken back unless the password was wrong.
  const attempt = await failures.record({ email, address: input.address, at: now, device, trusted });
  const tallies = await failures.tallies({ email, address: input.address, device, since, except: attempt });
  const waitMs = trusted
    ? waitFor(tallies.device, FREE_FAILURES.device, now)
    : Math.max(
        waitFor(tallies.account, FREE_FAILURES.account, now),
        waitFor(tallies.address, FREE_FAILURES.address, now),
      );
  if (waitMs > 0) {
    await failures.remove(attempt);
    return { kind: 'limited', retryAfterSeconds: Math.ceil(waitMs / 1000) };
  }
  const matches = [];
  for (const candidate of candidates) {
    if (await passwordMatches(input.password, candidate.password_hash)) matches.push(candidate);
  }
  if (candidates.length === 0) await passwordMatches(input.password, null);
  const chosen = input.organisationId
    ? matches.filter((m) => m.organisation_id === input.organisationId)
    : matches;
  const enabled = chosen.filter((m) => m.user_status === 'active');
  if (chosen.length > 0 && enabled.length === 0) {
    // Where password sign-in is off, a deactivated adviser's right password is a wrong one too.
    if (chosen.every((m) => !m.password_sign_in && !m.user_groups.includes('administrator')))
      return { kind: 'refused', refusal: 'wrong' };
    await failures.remove(attempt);
    return { kind: 'refused', refusal: 'deactivated' };
  }
  // Where the organisation switched password sign-in off, only its administrators may (break-glass).
  // Anyone else's right password is answered (and counted) exactly like a wrong one: the switch must
  // not turn sign-in into a way to test passwords.
  const active = enabled.filter((m) => m.password_sign_in || m.user_groups.includes('administrator'));
  if (active.length === 0) return { kind: 'refused', refusal: 'wrong' };
  await failures.remove(attempt);
  if (active.length > 1) {
    return {
      kind: 'choose',
      organisations: active.map((m) => ({ id: m.organisation_id, name: m.organisation_name })),
    };
  }
  const user = active[0]!;
  if (single) await failures.forgive({ email, address: input.address, device, trusted });
  await failures.prune(since);
  await pruneStaffSessions(deps, now);
  const breakGlass = !user.password_sign_in;
  // Every sign-in is in the audit trail; an administrator's way in past single sign-on (break-glass)
  // under its own name, for the other administrators to see.
  const ctx = systemContext(user.organisation_id, now, 'password sign-in');
  await inTenant(deps.database, ctx, (tx) =>
    auditRepository(tx, ctx).record(
      breakGlass
        ? {
            action: 'user.break_glass_sign_in',
            targetType: 'user',
            targetId: user.user_id,
            actorUserId: user.user_id,
            actorLabel: 'password sign-in while it is off (break-glass)',
            summary: { via: 'password', address: input.clientAddress ?? input.address },
          }
        : {
            action: 'user.signed_in',
            targetType: 'user',
            targetId: user.user_id,
            actorUserId: user.user_id,
            summary: { via: 'password' },
          },
    ),
  );
  return { kind: 'signed-in', organisationId: user.organisation_id, userId: user.user_id, breakGlass };
}

/** The retention sweep's step for failed sign-ins: those that have left the window go. */
export const signInFailuresRetention: RetentionStep = {
  what: 'sign_in_failures',
  prune: (database, now, limit) =>
    signInFailureRepository(database.db).prune(new Date(now.getTime() - SIGN_IN_WINDOW_MS), limit),
};

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Makes a single-use link for the user to set their password and queues the e-mail that carries it, in
 * the caller's transaction context. Earlier open links of the user stop working.
 */
async function issueLink(
  deps: AccountsDeps,
  ctx: RequestContext,
  userId: string,
  /** reset (forgot password); left out: an invitation for a user without a password, else a reset. */
  purpose?: 'reset',
  /** Make none when the user had one this recently (forgot-password requests are spaced out). */
  spacingMs = 0,
): Promise<{ expiresAt: Date } | null> {
  return inTenant(deps.database, ctx, async (tx) => {
    const user = isId(userId) ? await userById(tx, ctx, userId) : undefined;
    if (!user) throw new NotFound('User not found');
    if (user.kind !== 'staff') throw new Conflict('Service users do not sign in: give them an API key');
    if (user.status !== 'active') throw new Conflict('The user is deactivated: reactivate them first');
    const now = deps.clock.now();
    const tokens = passwordTokenRepository(tx, ctx);
    if (spacingMs > 0 && (await tokens.createdSince(user.id, new Date(now.getTime() - spacingMs))))
      return null;
    const token = randomBytes(32).toString('base64url');
    const id = newId(now.getTime());
    const expiresAt = new Date(now.getTime() + deps.passwordLinkMs);
    await tokens.retireOpen(user.id, now);
    await tokens.insert({
      id,
      userId: user.id,
      tokenHash: hashToken(token),
      purpose: purpose ?? (user.passwordHash ? 'reset' : 'invite'),
      createdAt: now,
      expiresAt,
    });
    await jobRepository(tx, ctx).enqueue(
      [
        passwordLinkJob.job({
          subjectId: user.id,
          payload: { tokenId: id, sealedToken: deps.box.seal(token, passwordLinkSealContext(id)) },
          runAt: now,
        }),
      ],
      now,
    );
    return { expiresAt };
  });
}

/** An administrator sends a user a link to set their password (a new user, or a forgotten password). */
export async function sendPasswordLink(
  deps: AccountsDeps,
  ctx: RequestContext,
  userId: string,
): Promise<{ success: true; expiresAt: string }> {
  // Without spacing a link is always made: never null here.
  const issued = (await issueLink(deps, ctx, userId)) as { expiresAt: Date };
  return { success: true, expiresAt: iso(issued.expiresAt) };
}

/**
 * "Forgot password": every active staff account with this e-mail gets a reset link. The answer is the
 * same whether or not any exists; at most one link a minute per account.
 */
export async function forgotPassword(deps: AccountsDeps, email: string): Promise<void> {
  const candidates = await findLoginCandidates(deps.database.db, normalEmail(email).slice(0, 320));
  for (const c of candidates.filter((x) => x.user_status === 'active')) {
    await issueLink(
      deps,
      systemContext(c.organisation_id, deps.clock.now(), 'forgotten password'),
      c.user_id,
      'reset',
      60_000,
    );
  }
}

export type LinkState =
  | { state: 'ok'; organisationId: string; userId: string; email: string; name: string }
  | { state: LinkProblem };

async function linkOf(deps: AccountsDeps, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return findPasswordToken(deps.database.db, hashToken(token));
}

/** What a password link is: usable (for whom), spent, expired or unknown. */
export async function passwordLinkState(deps: AccountsDeps, token: string): Promise<LinkState> {
  const hit = await linkOf(deps, token);
  if (!hit) return { state: 'unknown' };
  if (hit.used_at) return { state: 'used' };
  if (new Date(hit.expires_at) <= deps.clock.now()) return { state: 'expired' };
  const ctx = systemContext(hit.organisation_id, deps.clock.now(), 'password link');
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, hit.user_id));
  if (user?.status !== 'active') return { state: 'unknown' };
  return {
    state: 'ok',
    organisationId: hit.organisation_id,
    userId: user.id,
    email: user.email,
    name: user.name,
  };
}

/**
 * Sets the password through a link: the link is spent in the same transaction (a second use is refused,
 * also when two arrive at once), and sessions signed in before now end.
 */
export async function setPasswordWithLink(
  deps: AccountsDeps,
  token: string,
  password: string,
): Promise<
  | { ok: true; organisationId: string; userId: string; signIn: boolean; breakGlass: boolean }
  | { ok: false; state: LinkProblem }
  | { ok: false; rule: PasswordRule }
> {
  const hit = await linkOf(deps, token);
  if (!hit) return { ok: false, state: 'unknown' };
  const ctx = systemContext(hit.organisation_id, deps.clock.now(), 'password link');
  const passwordHashed = { value: '' };
  return inTenant(deps.database, ctx, async (tx) => {
    const tokens = passwordTokenRepository(tx, ctx);
    const row = await tokens.find(hit.token_id, { forUpdate: true });
    const now = deps.clock.now();
    if (!row) return { ok: false as const, state: 'unknown' as const };
    if (row.usedAt) return { ok: false as const, state: 'used' as const };
    if (row.expiresAt <= now) return { ok: false as const, state: 'expired' as const };
    const user = await userById(tx, ctx, row.userId, { forUpdate: true });
    if (user?.status !== 'active') return { ok: false as const, state: 'unknown' as const };
    const rule = passwordRule(password, user.email);
    if (rule) return { ok: false as const, rule };
    passwordHashed.value = await hashPassword(password);
    await setUserPassword(tx, ctx, user.id, passwordHashed.value, now);
    await tokens.use(row.id, now);
    // Where password sign-in is off, the link still sets the password (an administrator's break-glass
    // way in) but signs in only an administrator.
    const org = await organisationOf(tx, ctx);
    const signIn = org?.passwordSignIn !== false || user.groups.includes('administrator');
    const breakGlass = org?.passwordSignIn === false && signIn;
    if (breakGlass) {
      await auditRepository(tx, ctx).record(
        {
          action: 'user.break_glass_sign_in',
          targetType: 'user',
          targetId: user.id,
          actorUserId: user.id,
          actorLabel: 'password sign-in while it is off (break-glass)',
          summary: { via: 'password link' },
        },
        now,
      );
    }
    return { ok: true as const, organisationId: ctx.organisationId, userId: user.id, signIn, breakGlass };
  });
}

/** An administrator (API, CLI) sets a staff user's password; the user's browser sessions end. */
export async function setPasswordByAdministrator(
  deps: AccountsDeps,
  ctx: RequestContext,
  userId: string,
  password: string,
): Promise<{ success: true }> {
  return inTenant(deps.database, ctx, async (tx) => {
    const user = isId(userId) ? await userById(tx, ctx, userId, { forUpdate: true }) : undefined;
    if (!user) throw new NotFound('User not found');
    if (user.kind !== 'staff') throw new Conflict('Service users do not sign in: give them an API key');
    const problem = passwordProblem(password, user.email);
    if (problem) throw BadRequest.field('password', problem);
    const now = deps.clock.now();
    await setUserPassword(tx, ctx, user.id, await hashPassword(password), now);
    // Links sent earlier stop working: the administrator's password is the one that counts now.
    await passwordTokenRepository(tx, ctx).retireOpen(user.id, now);
    return { success: true as const };
  });
}

async function userIdByEmail(deps: AccountsDeps, ctx: RequestContext, email: string): Promise<string> {
  const user = await inTenant(deps.database, ctx, (tx) => userByEmail(tx, ctx, email));
  if (!user) throw new NotFound(`No user with the e-mail ${email} in organisation ${ctx.organisationId}`);
  return user.id;
}

/** The CLI's way: sets the password of the organisation's staff user with this e-mail. */
export async function setPasswordByEmail(
  deps: AccountsDeps,
  organisationId: string,
  email: string,
  password: string,
): Promise<void> {
  const ctx = systemContext(organisationId, deps.clock.now(), 'staff sign-in');
  await setPasswordByAdministrator(deps, ctx, await userIdByEmail(deps, ctx, email), password);
}

/** The CLI's way: queues a password link for the organisation's staff user with this e-mail. */
export async function passwordLinkByEmail(deps: AccountsDeps, organisationId: string, email: string) {
  const ctx = systemContext(organisationId, deps.clock.now(), 'staff sign-in');
  return sendPasswordLink(deps, ctx, await userIdByEmail(deps, ctx, email));
}

/** Removes the staff browser sessions past their end (done at each sign-in, before a new one begins). */
export function pruneStaffSessions(deps: { database: Database }, now: Date): Promise<void> {
  return pruneExpiredSessions(deps.database.db, now);
}
