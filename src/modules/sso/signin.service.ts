import { randomBytes } from 'node:crypto';
import { Strategy as OAuth2Strategy, type StateStore } from 'passport-oauth2';
import { auditRepository } from '../../platform/audit.repository';
import type { Clock } from '../../platform/clock';
import { systemContext } from '../../platform/context';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { inTenant } from '../../platform/db/tenant';
import { isId, newId } from '../../platform/ids';
import { organisationOf, provisionUser, userByEmail, userById } from '../organisations';
import {
  type IdTokenClaims,
  IdTokenError,
  type OidcClient,
  ProviderError,
  type ProviderMetadata,
} from './oidc';
import {
  findProvidersForEmail,
  type ProviderChoice,
  type SsoProviderRow,
  ssoIdentityRepository,
  ssoProviderRepository,
} from './sso.repository';
import { callbackUrl, defaultIssuer, secretContext } from './sso.service';

export interface SsoSignInDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  baseUrl: string;
  oidc: OidcClient;
  /** Served over HTTPS (the device cookie set at sign-in is then `__Host-` prefixed and Secure). */
  secureCookies: boolean;
}

/** A sign-in started in this browser and not yet finished: kept in its (not yet signed-in) session. */
export interface PendingSignIn {
  organisationId: string;
  providerId: string;
  nonce: string;
  /** The PKCE code verifier (RFC 7636), sent with the code. */
  verifier: string;
  /** Where to go once signed in (a path of this site). */
  next?: string;
  /** Epoch ms on the app clock. */
  startedAt: number;
}

/**
 * The browser's side of a sign-in, as the router hands it over (no web framework here): the query the
 * provider sent it back with, and the sign-ins started in its (not yet signed-in) session.
 */
export interface SignInBrowser {
  readonly query: Readonly<Record<string, unknown>>;
  /** The sign-ins started in this browser and not finished, by their `state`. */
  pendingSignIns(): Readonly<Record<string, PendingSignIn>>;
  setPendingSignIns(all: Record<string, PendingSignIn>): void;
  /** Stores the session now (before the browser is sent to the provider). */
  save(): Promise<void>;
}

/** A started sign-in must come back within this time. */
export const PENDING_MS = 10 * 60_000;
/** At most this many sign-ins open at once in one browser (the oldest is dropped). */
const PENDING_MAX = 5;

export type SsoRefusal =
  | 'state'
  | 'disabled'
  | 'cancelled'
  | 'provider'
  | 'id-token'
  | 'unverified'
  | 'domain'
  | 'no-account'
  | 'linked-elsewhere'
  | 'deactivated';

export type FinishOutcome =
  | {
      kind: 'signed-in';
      organisationId: string;
      userId: string;
      /** The user's e-mail address in ActionDesk (this browser is remembered for it). */
      email: string;
      next?: string;
      created: boolean;
    }
  | { kind: 'refused'; reason: SsoRefusal; message: string; detail?: string };

const refuse = (reason: SsoRefusal, message: string, detail?: string): FinishOutcome => ({
  kind: 'refused',
  reason,
  message,
  ...(detail ? { detail } : {}),
});

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

/**
 * passport-oauth2's state store, kept in the browser's session: `state` is a random handle of 32 bytes
 * bound to the organisation, the provider, the nonce and the PKCE verifier; it works once (taken out
 * when the provider sends the browser back) and for PENDING_MS.
 */
function sessionStateStore(
  clock: Clock,
  browser: SignInBrowser,
  pending: Omit<PendingSignIn, 'verifier' | 'startedAt'>,
): StateStore {
  return {
    store(
      _req: unknown,
      verifier: string,
      _state: unknown,
      _meta: unknown,
      done: (err: Error | null, state?: string) => void,
    ) {
      const handle = randomBytes(32).toString('base64url');
      const now = clock.now().getTime();
      const open = Object.entries(browser.pendingSignIns())
        .filter(([, p]) => now - p.startedAt < PENDING_MS)
        .sort(([, a], [, b]) => a.startedAt - b.startedAt)
        .slice(-(PENDING_MAX - 1));
      browser.setPendingSignIns(
        Object.fromEntries([...open, [handle, { ...pending, verifier, startedAt: now }]]),
      );
      browser.save().then(
        () => done(null, handle),
        (err: Error) => done(err),
      );
    },
    verify(
      _req: unknown,
      state: string,
      done: (err: Error | null, ok?: string | false, info?: unknown) => void,
    ) {
      done(null, takePending(browser, clock, state)?.verifier ?? false, { message: 'state' });
    },
  } as unknown as StateStore;
}

/** The pending sign-in of this `state`, taken out of the session (single use); undefined if none. */
function takePending(browser: SignInBrowser, clock: Clock, state: unknown): PendingSignIn | undefined {
  const pending = peekPending(browser, state);
  if (!pending) return undefined;
  const { [state as string]: _spent, ...rest } = browser.pendingSignIns();
  browser.setPendingSignIns(rest);
  return clock.now().getTime() - pending.startedAt < PENDING_MS ? pending : undefined;
}

/** The pending sign-in of this `state` without taking it (to know which provider to ask). */
function peekPending(browser: SignInBrowser, state: unknown): PendingSignIn | undefined {
  const all = browser.pendingSignIns();
  if (typeof state !== 'string' || !Object.hasOwn(all, state)) return undefined;
  return all[state];
}

type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: { idToken?: unknown } }
  | { kind: 'fail'; info: unknown }
  | { kind: 'error'; err: Error };

/**
 * The provider's OAuth 2.0 strategy (passport-oauth2: authorization code with PKCE S256, state in
 * the session), with the token request sent through our safe HTTP client (time limit, no inner
 * addresses). The ID token is verified by the caller, against the nonce of the pending sign-in.
 */
function strategyFor(
  deps: SsoSignInDeps,
  browser: SignInBrowser,
  provider: SsoProviderRow,
  metadata: ProviderMetadata,
  pending: Omit<PendingSignIn, 'verifier' | 'startedAt'>,
  loginHint?: string,
): OAuth2Strategy {
  const clientSecret = deps.box.open(provider.clientSecretSealed, secretContext(provider.id));
  const strategy = new OAuth2Strategy(
    {
      authorizationURL: metadata.authorizationEndpoint,
      tokenURL: metadata.tokenEndpoint,
      clientID: provider.clientId,
      clientSecret,
      callbackURL: callbackUrl(deps.baseUrl),
      scope: ['openid', 'email', 'profile'],
      pkce: true,
      store: sessionStateStore(deps.clock, browser, pending),
      skipUserProfile: true,
    } as never,
    (
      _access: string,
      _refresh: string,
      params: { id_token?: unknown },
      _profile: unknown,
      done: (e: null, u: object) => void,
    ) => done(null, { idToken: params.id_token }),
  );
  strategy.authorizationParams = () => ({
    nonce: pending.nonce,
    ...(loginHint ? { login_hint: loginHint } : {}),
    ...(provider.type === 'microsoft' || provider.type === 'google' ? { prompt: 'select_account' } : {}),
  });
  // The code exchange goes through the safe client: a time limit, and no loopback or private address.
  const oauth2 = (strategy as unknown as { _oauth2: Record<string, unknown> })._oauth2;
  oauth2.getOAuthAccessToken = (
    code: string,
    params: Record<string, string>,
    callback: (err: unknown, access?: string, refresh?: string, result?: Record<string, unknown>) => void,
  ) => {
    deps.oidc
      .exchange(metadata.tokenEndpoint, {
        ...params,
        code,
        client_id: provider.clientId,
        client_secret: clientSecret,
      })
      .then(({ status, body }) => {
        if (status !== 200 || typeof body.access_token !== 'string') {
          callback({ statusCode: status, data: JSON.stringify(body) });
          return;
        }
        callback(null, body.access_token, body.refresh_token as string | undefined, body);
      }, callback);
  };
  return strategy;
}

/**
 * Runs a passport strategy for this browser and answers how it ended (in place of passport.authenticate):
 * the strategy reads the query only (its callback URL is absolute, its state store the browser's session).
 */
function runStrategy(strategy: OAuth2Strategy, browser: SignInBrowser): Promise<StrategyOutcome> {
  return new Promise((resolve) => {
    const run = Object.create(strategy) as OAuth2Strategy & Record<string, unknown>;
    run.redirect = (url: string) => resolve({ kind: 'redirect', url });
    run.success = (user: { idToken?: unknown }) => resolve({ kind: 'success', user });
    run.fail = (info: unknown) => resolve({ kind: 'fail', info });
    run.error = (err: Error) => resolve({ kind: 'error', err });
    run.pass = () => resolve({ kind: 'fail', info: undefined });
    try {
      run.authenticate({ query: browser.query, body: {} } as never, {});
    } catch (err) {
      resolve({ kind: 'error', err: err as Error });
    }
  });
}

export type StartOutcome = { kind: 'redirect'; url: string } | Extract<FinishOutcome, { kind: 'refused' }>;

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

const disabled = (provider: SsoProviderRow | undefined) =>
  refuse(
    'disabled',
    provider
      ? `Sign-in with ${provider.name} is switched off for your organisation. Sign in another way, or ask an administrator.`
      : 'This sign-in provider does not exist (any more). Sign in another way, or ask an administrator.',
  ) as Extract<FinishOutcome, { kind: 'refused' }>;

const providerFailed = (err: unknown) =>
  refuse(
    'provider',
    'The sign-in provider did not answer as expected. Try again in a moment; if it goes on, tell an administrator.',
    (err as Error).message,
  ) as Extract<FinishOutcome, { kind: 'refused' }>;

const UNVERIFIED =
  'The answer of the sign-in provider could not be verified, so you are not signed in. Start again; if it goes on, tell an administrator.';

/** The provider's endpoints; a Microsoft-type directory named by its domain expects its GUID issuer. */
function metadataOf(deps: SsoSignInDeps, provider: SsoProviderRow): Promise<ProviderMetadata> {
  const microsoftDomain =
    provider.type === 'microsoft' &&
    provider.tenantId !== null &&
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(provider.tenantId) &&
    provider.issuer === defaultIssuer('microsoft', provider.tenantId);
  return deps.oidc.metadata(provider.issuer, { microsoftDomain });
}

const STATE_MESSAGE =
  'This sign-in cannot be finished: it was used already, took too long, or was started in another browser. Start again from the sign-in page.';

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
    return refuse('state', STATE_MESSAGE);
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
    return refuse('id-token', UNVERIFIED, `the answer names another issuer (${String(iss).slice(0, 200)})`);
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
    if (info?.message === 'state') return refuse('state', STATE_MESSAGE);
    return refuse('cancelled', 'The sign-in was cancelled at the provider. Start again to sign in.');
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
    if (err instanceof IdTokenError) return refuse('id-token', UNVERIFIED, err.message);
    if (err instanceof ProviderError) return providerFailed(err);
    throw err;
  }
  return matchUser(deps, provider, claims, peeked.next);
}

async function matchUser(
  deps: SsoSignInDeps,
  provider: SsoProviderRow,
  claims: IdTokenClaims,
  next: string | undefined,
): Promise<FinishOutcome> {
  const verified = claims.emailVerified || (provider.type === 'microsoft' && claims.domainVerified);
  if (!claims.email || !verified) {
    return refuse(
      'unverified',
      `Your ${provider.name} account has no verified e-mail address, so it cannot be matched to an ActionDesk account. Verify it at ${provider.name}, or sign in another way.`,
    );
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
      'domain',
      `Addresses of ${domain} may not sign in to this organisation with ${provider.name}. Use your work account.`,
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
  deps: SsoSignInDeps,
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
      return refuse(
        'linked-elsewhere',
        `Your ActionDesk account is linked to another ${provider.name} account. Sign in with that one, or ask an administrator to remove the link.`,
      );
    }
    if (!user) {
      if (!provider.jitGroup || provider.allowedDomains.length === 0 || (await userByEmail(tx, ctx, email))) {
        return refuse(
          'no-account',
          `There is no ActionDesk account for ${email} in this organisation. Ask an administrator to add you.`,
        );
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
      return refuse(
        'deactivated',
        'Your ActionDesk account has been deactivated. Ask an administrator of your organisation.',
      );
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
