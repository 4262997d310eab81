import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { isId } from '../../platform/kernel/ids';
import { organisationOf } from '../organisations';
import {
  type IdTokenClaims,
  IdTokenError,
  type OidcClient,
  ProviderError,
  type ProviderMetadata,
} from './oidc';
import { type FinishOutcome, type Refused, refuse, type StartOutcome } from './signin.outcome';
import { peekPending, runStrategy, type SignInBrowser, strategyFor, takePending } from './signin.strategy';
import { matchUser } from './signin-users.service';
import {
  findProvidersForEmail,
  type ProviderChoice,
  type SsoProviderRow,
  ssoProviderRepository,
} from './sso.repository';
import { defaultIssuer } from './sso.service';

export interface SsoSignInDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  baseUrl: string;
  oidc: OidcClient;
  /** Served over HTTPS (the device cookie set at sign-in is then `__Host-` prefixed and Secure). */
  secureCookies: boolean;
}

/** The enabled providers whose buttons an e-mail address gets (in every organisation it may use). */
export function providersForEmail(deps: SsoSignInDeps, email: string): Promise<ProviderChoice[]> {
  const address = email.trim().toLowerCase();
  if (address.length > 320 || !address.includes('@')) return Promise.resolve([]);
  return findProvidersForEmail(deps.database.db, address);
}

/** An organisation's own sign-in address: its name and enabled providers (undefined: no such one). */
export async function organisationSignIn(
  deps: SsoSignInDeps,
  organisationId: string,
): Promise<
  | { name: string; passwordSignIn: boolean; providers: { id: string; name: string; type: string }[] }
  | undefined
> {
  if (!isId(organisationId)) return undefined;
  const ctx = systemContext(organisationId, deps.clock.now(), 'single sign-on');
  return inTenant(deps.database, ctx, async (tx) => {
    const org = await organisationOf(tx, ctx);
    if (!org) return undefined;
    const providers = (await ssoProviderRepository(tx, ctx).list()).filter((p) => p.enabled);
    return {
      name: org.name,
      passwordSignIn: org.passwordSignIn,
      providers: providers.map((p) => ({ id: p.id, name: p.name, type: p.type })),
    };
  });
}

async function loadProvider(
  deps: SsoSignInDeps,
  organisationId: string,
  providerId: string,
): Promise<SsoProviderRow | undefined> {
  if (!isId(organisationId) || !isId(providerId)) return undefined;
  const ctx = systemContext(organisationId, deps.clock.now(), 'single sign-on');
  return inTenant(deps.database, ctx, (tx) => ssoProviderRepository(tx, ctx).find(providerId));
}

/** Starts the sign-in at the provider: answers where to send the browser (or why not). */
export async function startSignIn(
  deps: SsoSignInDeps,
  browser: SignInBrowser,
  input: { organisationId: string; providerId: string; next?: string; loginHint?: string },
): Promise<StartOutcome> {
  const provider = await loadProvider(deps, input.organisationId, input.providerId);
  if (!provider?.enabled) return disabled(provider);
  let metadata: ProviderMetadata;
  try {
    metadata = await metadataOf(deps, provider);
  } catch (err) {
    return providerFailed(err);
  }
  const pending = {
    organisationId: provider.organisationId,
    providerId: provider.id,
    nonce: randomBytes(24).toString('base64url'),
    ...(input.next ? { next: input.next } : {}),
  };
  const outcome = await runStrategy(
    strategyFor(deps, browser, provider, metadata, pending, input.loginHint),
    browser,
  );
  if (outcome.kind === 'redirect') return outcome;
  return providerFailed(outcome.kind === 'error' ? outcome.err : new Error('no redirect'));
}

/** A provider switched off, or one that does not exist (any more). */
const disabled = (provider: SsoProviderRow | undefined): Refused =>
  refuse(provider ? { reason: 'disabled', provider: provider.name } : { reason: 'disabled' });

const providerFailed = (err: unknown): Refused => refuse({ reason: 'provider' }, (err as Error).message);

/** The provider's endpoints; a Microsoft-type directory named by its domain expects its GUID issuer. */
function metadataOf(deps: SsoSignInDeps, provider: SsoProviderRow): Promise<ProviderMetadata> {
  const microsoftDomain =
    provider.type === 'microsoft' &&
    provider.tenantId !== null &&
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(provider.tenantId) &&
    provider.issuer === defaultIssuer('microsoft', provider.tenantId);
  return deps.oidc.metadata(provider.issuer, { microsoftDomain });
}

/**
 * The provider sent the browser back (`GET /api/v1/auth/oauth/callback`): the state is checked and
 * spent, the code exchanged, the ID token verified, and the staff user found — by the provider's
 * subject once linked, else by the verified e-mail address — within the organisation the sign-in was
 * started for. Nothing is created or linked unless every check passed.
 */
export async function finishSignIn(deps: SsoSignInDeps, browser: SignInBrowser): Promise<FinishOutcome> {
  const state = browser.query.state;
  const peeked = peekPending(browser, state);
  if (!peeked) {
    // Spent, tampered, expired or from another browser: the code (if any) is never exchanged.
    return refuse({ reason: 'state' });
  }
  const provider = await loadProvider(deps, peeked.organisationId, peeked.providerId);
  if (!provider?.enabled) {
    takePending(browser, deps.clock, state);
    return disabled(provider);
  }
  let metadata: ProviderMetadata;
  try {
    metadata = await metadataOf(deps, provider);
  } catch (err) {
    takePending(browser, deps.clock, state);
    return providerFailed(err);
  }
  // RFC 9207: a provider that names itself in the answer must be the one the sign-in went to.
  const iss = browser.query.iss;
  if (iss !== undefined && iss !== metadata.issuer) {
    takePending(browser, deps.clock, state);
    return refuse({ reason: 'id-token' }, `the answer names another issuer (${String(iss).slice(0, 200)})`);
  }
  const pendingFields = {
    organisationId: provider.organisationId,
    providerId: provider.id,
    nonce: peeked.nonce,
  };
  const outcome = await runStrategy(strategyFor(deps, browser, provider, metadata, pendingFields), browser);
  // Whatever happened, the state is spent (the store took it out when it was checked).
  takePending(browser, deps.clock, state);
  if (outcome.kind === 'fail') {
    const info = outcome.info as { message?: string } | undefined;
    if (info?.message === 'state') return refuse({ reason: 'state' });
    return refuse({ reason: 'cancelled' });
  }
  if (outcome.kind === 'error') return providerFailed(outcome.err);
  if (outcome.kind !== 'success' || typeof outcome.user.idToken !== 'string') {
    return providerFailed(new Error('the token response has no ID token'));
  }
  let claims: IdTokenClaims;
  try {
    claims = await deps.oidc.verifyIdToken(outcome.user.idToken, {
      metadata,
      clientId: provider.clientId,
      nonce: peeked.nonce,
    });
  } catch (err) {
    if (err instanceof IdTokenError) return refuse({ reason: 'id-token' }, err.message);
    if (err instanceof ProviderError) return providerFailed(err);
    throw err;
  }
  return matchUser(deps, provider, claims, peeked.next);
}
