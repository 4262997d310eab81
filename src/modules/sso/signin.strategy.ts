import { randomBytes } from 'node:crypto';
import { Strategy as OAuth2Strategy, type StateStore } from 'passport-oauth2';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Clock } from '../../platform/kernel/clock';
import type { OidcClient, ProviderMetadata } from './oidc';
import type { SsoProviderRow } from './sso.repository';
import { callbackUrl, secretContext } from './sso.service';

// The passport-oauth2 plumbing of a sign-in: the pending sign-ins kept in the browser's session (the
// strategy's state store), the provider's strategy, and running it without passport.authenticate.

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
const PENDING_MS = 10 * 60_000;
/** At most this many sign-ins open at once in one browser (the oldest is dropped). */
const PENDING_MAX = 5;

/** What a provider's strategy needs: the clock, the secret box, the site's address, the OIDC client. */
export interface StrategyDeps {
  clock: Clock;
  box: SecretBox;
  baseUrl: string;
  oidc: OidcClient;
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
export function takePending(browser: SignInBrowser, clock: Clock, state: unknown): PendingSignIn | undefined {
  const pending = peekPending(browser, state);
  if (!pending) return undefined;
  const { [state as string]: _spent, ...rest } = browser.pendingSignIns();
  browser.setPendingSignIns(rest);
  return clock.now().getTime() - pending.startedAt < PENDING_MS ? pending : undefined;
}

/** The pending sign-in of this `state` without taking it (to know which provider to ask). */
export function peekPending(browser: SignInBrowser, state: unknown): PendingSignIn | undefined {
  const all = browser.pendingSignIns();
  if (typeof state !== 'string' || !Object.hasOwn(all, state)) return undefined;
  return all[state];
}

/** How a run of the strategy ended: a redirect to the provider, a user, a failure or an error. */
export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: { idToken?: unknown } }
  | { kind: 'fail'; info: unknown }
  | { kind: 'error'; err: Error };

/**
 * The provider's OAuth 2.0 strategy (passport-oauth2: authorization code with PKCE S256, state in
 * the session), with the token request sent through our safe HTTP client (time limit, no inner
 * addresses). The ID token is verified by the caller, against the nonce of the pending sign-in.
 */
export function strategyFor(
  deps: StrategyDeps,
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
export function runStrategy(strategy: OAuth2Strategy, browser: SignInBrowser): Promise<StrategyOutcome> {
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
