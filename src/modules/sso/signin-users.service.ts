import { auditRepository } from '../../platform/audit/audit.repository';
import type { Database } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { provisionUser, userByEmail, userById } from '../organisations';
import type { IdTokenClaims } from './oidc';
import { type FinishOutcome, refuse } from './signin.outcome';
import { type SsoProviderRow, ssoIdentityRepository } from './sso.repository';

/** What matching a sign-in to a staff user needs: the database and the clock. */
export interface SignInUserDeps {
  database: Database;
  clock: Clock;
}

/**
 * The staff user a verified ID token signs in as, within the provider's organisation: the one linked
 * to the provider's subject, else the one with the verified e-mail address (then linked), else — for a
 * provider that creates users just in time — a new one; or why none. The sign-in is audited.
 */
export async function matchUser(
  deps: SignInUserDeps,
  provider: SsoProviderRow,
  claims: IdTokenClaims,
  next: string | undefined,
): Promise<FinishOutcome> {
  const verified = claims.emailVerified || (provider.type === 'microsoft' && claims.domainVerified);
  if (!claims.email || !verified) {
    return refuse({ reason: 'unverified', provider: provider.name });
  }
  const email = claims.email;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  // A Google-type account of the organisation's Workspace says so (hd); a consumer account registered
  // with a company address does not.
  const hostedOk =
    provider.type !== 'google' ||
    provider.allowedDomains.length === 0 ||
    (claims.hostedDomain !== undefined && provider.allowedDomains.includes(claims.hostedDomain));
  if ((provider.allowedDomains.length > 0 && !provider.allowedDomains.includes(domain)) || !hostedOk) {
    return refuse(
      { reason: 'domain', domain, provider: provider.name },
      hostedOk ? undefined : `hosted domain ${claims.hostedDomain ?? '(none: a consumer account)'}`,
    );
  }
  // Two first sign-ins of the same person at once (two tabs) race to create or link: the loser of the
  // unique index looks again and finds what the winner made.
  try {
    return await findOrCreate(deps, provider, claims, email, next);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return findOrCreate(deps, provider, claims, email, next);
  }
}

function findOrCreate(
  deps: SignInUserDeps,
  provider: SsoProviderRow,
  claims: IdTokenClaims,
  email: string,
  next: string | undefined,
): Promise<FinishOutcome> {
  const now = deps.clock.now();
  const ctx = systemContext(provider.organisationId, now, 'single sign-on');
  return inTenant(deps.database, ctx, async (tx) => {
    const identities = ssoIdentityRepository(tx, ctx);
    const linked = await identities.findBySubject(provider.id, claims.sub);
    let user = linked ? await userById(tx, ctx, linked.userId) : await userByEmail(tx, ctx, email);
    let created = false;
    if (user && user.kind !== 'staff') user = undefined;
    if (user && !linked && (await identities.findByUser(provider.id, user.id))) {
      // The address now belongs to another account at the provider (a reused address, a second
      // account): the link stays with the first until an administrator removes it.
      return refuse({ reason: 'linked-elsewhere', provider: provider.name });
    }
    if (!user) {
      if (!provider.jitGroup || provider.allowedDomains.length === 0 || (await userByEmail(tx, ctx, email))) {
        return refuse({ reason: 'no-account', email });
      }
      // Just-in-time: a new staff user in the provider's group (only for its allowed domains).
      user = await provisionUser(tx, ctx, {
        id: newId(now.getTime()),
        email,
        name: claims.name ?? email,
        kind: 'staff',
        status: 'active',
        groups: [provider.jitGroup],
        createdAt: now,
        updatedAt: now,
      });
      created = true;
    }
    if (user.status !== 'active') {
      return refuse({ reason: 'deactivated' });
    }
    await identities.link({
      id: newId(now.getTime()),
      providerId: provider.id,
      userId: user.id,
      subject: claims.sub,
      email,
      createdAt: now,
      lastSignInAt: now,
    });
    await auditRepository(tx, ctx).record({
      action: 'user.signed_in',
      targetType: 'user',
      targetId: user.id,
      actorUserId: user.id,
      summary: { via: 'single sign-on', provider: provider.name, ...(created ? { created: true } : {}) },
    });
    return {
      kind: 'signed-in',
      organisationId: provider.organisationId,
      userId: user.id,
      email: user.email,
      ...(next ? { next } : {}),
      created,
    };
  });
}
