import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { LOOPBACK_HOSTS } from '../../platform/kernel/urls';
import { userById } from '../organisations';
import { authorizationRequestRepository } from './authorize.repository';
import { isClientId } from './client-auth';
import { oauthClientRepository } from './oauth.repository';
import { random62 } from './oauth.service';
import { hashToken, newAuthorizationCode } from './token-formats';
import { type ClientHit, findClientById, oauthCodeRepository } from './tokens.repository';

export interface AuthorizeDeps {
  database: Database;
  clock: Clock;
  /** The authorization server's issuer (BASE_URL): returned as `iss` (RFC 9207). */
  issuer: string;
}

/** An authorization code lives this long (RFC 6749 §4.1.2 recommends at most 10 minutes). */
const CODE_SECONDS = 60;
/** A consent page may be answered for this long after it was shown. */
export const CONSENT_SECONDS = 600;

/** The id a consent page's form posts back: `adq_` + 40 base62 characters; stored as SHA-256 only. */
const newAuthorizationRequestId = () => `adq_${random62(40)}`;
const REQUEST_ID = /^adq_[0-9A-Za-z]{40}$/;

/** The authorization request's parameters (RFC 6749 §4.1.1, RFC 7636 §4.3), as sent. */
export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** A request the adviser may consent to, with what the client will get. */
export interface Consentable {
  client: ClientHit & { name: string; clientId: string };
  redirectUri: string;
  /** The request named the redirect URI (the token request must then repeat it), or it was the default. */
  redirectUriGiven: boolean;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
}

export type AuthorizeCheck =
  /** The client or its redirect URI cannot be trusted: say so on our page, never redirect. */
  | { kind: 'refuse'; status: number; message: string }
  /** A valid client and redirect URI but a bad request: back to the client with the RFC error. */
  | { kind: 'redirect'; to: string }
  | { kind: 'consent'; request: Consentable };

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The client's redirect URI with the response parameters added (its own query kept). */
function redirectTo(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Whether a redirect URI sent with a request fits a registered one: exactly, or — for http on the
 * loopback address — on any port (RFC 8252 §7.3: a native app listens on a port it gets at run time).
 */
function redirectMatches(registered: string, given: string): boolean {
  if (registered === given) return true;
  let r: URL;
  let g: URL;
  try {
    r = new URL(registered);
    g = new URL(given);
  } catch {
    return false;
  }
  return (
    r.protocol === 'http:' &&
    g.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(r.hostname) &&
    g.hostname === r.hostname &&
    g.username === '' &&
    g.password === '' &&
    g.hash === '' &&
    !given.includes('#') &&
    g.pathname === r.pathname &&
    g.search === r.search
  );
}

/**
 * Checks an authorization request for the signed-in adviser (RFC 6749 §4.1.2.1): an unknown or disabled
 * client, or a redirect URI that is not registered exactly, is refused on our page; anything else wrong
 * goes back to the client as `error` with the request's `state`.
 */
export async function checkAuthorization(
  deps: AuthorizeDeps,
  ctx: RequestContext,
  p: AuthorizeParams,
): Promise<AuthorizeCheck> {
  const refuse = (status: number, message: string) => ({ kind: 'refuse' as const, status, message });
  if (!p.client_id) return refuse(400, 'The application did not say who it is (client_id is missing).');
  const hit = isClientId(p.client_id) ? await findClientById(deps.database.db, p.client_id) : undefined;
  if (!hit) return refuse(400, 'This application is not registered with ActionDesk (unknown client_id).');
  if (hit.disabled_at) return refuse(403, 'This application has been disabled by an administrator.');
  if (hit.organisation_id !== ctx.organisationId) {
    return refuse(
      403,
      'This application is registered with another organisation. Sign out, then sign in with your account of that organisation.',
    );
  }
  let redirectUri = p.redirect_uri;
  if (redirectUri === undefined) {
    if (hit.redirect_uris.length !== 1) {
      return refuse(400, 'The application did not say where to return (redirect_uri is missing).');
    }
    redirectUri = hit.redirect_uris[0] as string;
  } else if (!hit.redirect_uris.some((registered) => redirectMatches(registered, redirectUri as string))) {
    return refuse(
      400,
      'The application asked to return to an address that is not registered for it (redirect_uri).',
    );
  }
  const back = (error: string, description: string) => ({
    kind: 'redirect' as const,
    to: redirectTo(redirectUri, {
      error,
      error_description: description,
      state: p.state,
      iss: deps.issuer,
    }),
  });
  if (p.response_type !== 'code') {
    return back(
      'unsupported_response_type',
      p.response_type
        ? `response_type ${p.response_type} is not supported: use code`
        : 'response_type=code is required',
    );
  }
  if (!hit.grants.includes('authorization_code')) {
    return back('unauthorized_client', 'This client may not use the authorization_code grant');
  }
  const requested = (p.scope ?? '').split(' ').filter(Boolean);
  const scopes = requested.length === 0 ? hit.scopes : hit.scopes.filter((s) => requested.includes(s));
  if (scopes.length === 0) {
    return back(
      'invalid_scope',
      `None of the requested scopes is allowed for this client (allowed: ${hit.scopes.join(' ')})`,
    );
  }
  if (p.code_challenge_method !== undefined && p.code_challenge_method !== 'S256') {
    return back('invalid_request', 'code_challenge_method must be S256');
  }
  if (p.code_challenge !== undefined) {
    if (!CHALLENGE.test(p.code_challenge)) {
      return back('invalid_request', 'code_challenge must be 43–128 characters of A–Z a–z 0–9 - . _ ~');
    }
    if (p.code_challenge_method === undefined)
      return back('invalid_request', 'code_challenge_method=S256 is required');
  } else if (p.code_challenge_method !== undefined) {
    return back('invalid_request', 'code_challenge is missing');
  } else if (hit.type === 'public') {
    return back(
      'invalid_request',
      'PKCE is required for public clients: send code_challenge with code_challenge_method=S256',
    );
  }
  const row = await inTenant(deps.database, ctx, (tx) => oauthClientRepository(tx, ctx).find(hit.id));
  if (!row) return refuse(400, 'This application is not registered with ActionDesk (unknown client_id).');
  return {
    kind: 'consent',
    request: {
      client: { ...hit, name: row.name, clientId: row.clientId },
      redirectUri,
      redirectUriGiven: p.redirect_uri !== undefined,
      scopes,
      state: p.state,
      codeChallenge: p.code_challenge,
      codeChallengeMethod: p.code_challenge ? 'S256' : undefined,
    },
  };
}

/**
 * Keeps the request the consent page shows, for the signed-in adviser, for CONSENT_SECONDS: answers
 * the random id the page's form posts back (only its hash is stored).
 */
export async function rememberRequest(
  deps: AuthorizeDeps,
  ctx: RequestContext,
  r: Consentable,
): Promise<string> {
  const id = newAuthorizationRequestId();
  const now = deps.clock.now();
  await inTenant(deps.database, ctx, (tx) =>
    authorizationRequestRepository(tx, ctx).insert({
      requestHash: hashToken(id),
      userId: ctx.userId as string,
      clientId: r.client.id,
      redirectUri: r.redirectUri,
      redirectUriGiven: r.redirectUriGiven,
      scopes: r.scopes,
      state: r.state ?? null,
      codeChallenge: r.codeChallenge ?? null,
      codeChallengeMethod: r.codeChallengeMethod ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CONSENT_SECONDS * 1000),
    }),
  );
  return id;
}

const CONSENT_GONE =
  'This consent page can no longer be answered: it expired, it was answered already, or it was shown to someone else. Go back to the application and start again.';

/**
 * The adviser's answer to the consent page with this request id: the request is spent (whatever the
 * answer), checked again against the client as it is now (disabled meanwhile, fewer scopes, a redirect
 * URI removed), and answered with a code or access_denied. Only what the page showed counts: nothing
 * of the request comes from the form. An unknown, expired, answered or other adviser's id is refused.
 */
export async function answerConsent(
  deps: AuthorizeDeps,
  ctx: RequestContext,
  requestId: string,
  decision: 'allow' | 'deny',
): Promise<Exclude<AuthorizeCheck, { kind: 'consent' }>> {
  const gone = { kind: 'refuse' as const, status: 400, message: CONSENT_GONE };
  if (!REQUEST_ID.test(requestId)) return gone;
  const now = deps.clock.now();
  const stored = await inTenant(deps.database, ctx, async (tx) => {
    const row = await authorizationRequestRepository(tx, ctx).spend(
      hashToken(requestId),
      ctx.userId as string,
      now,
    );
    const client = row && (await oauthClientRepository(tx, ctx).find(row.clientId));
    return row && client ? { row, publicClientId: client.clientId } : undefined;
  });
  if (!stored) return gone;
  const { row, publicClientId } = stored;
  const check = await checkAuthorization(deps, ctx, {
    response_type: 'code',
    client_id: publicClientId,
    redirect_uri: row.redirectUri,
    scope: row.scopes.join(' '),
    state: row.state ?? undefined,
    code_challenge: row.codeChallenge ?? undefined,
    code_challenge_method: row.codeChallengeMethod ?? undefined,
  });
  if (check.kind !== 'consent') return check;
  const request = { ...check.request, redirectUriGiven: row.redirectUriGiven };
  return {
    kind: 'redirect',
    to: decision === 'allow' ? await issueCode(deps, ctx, request) : denied(deps, request),
  };
}

/** The adviser allowed it: a single-use code bound to client, redirect URI and challenge, and where to send it. */
async function issueCode(deps: AuthorizeDeps, ctx: RequestContext, r: Consentable): Promise<string> {
  const code = newAuthorizationCode();
  const now = deps.clock.now();
  await inTenant(deps.database, ctx, async (tx) => {
    await oauthCodeRepository(tx, ctx).insert({
      id: newId(now.getTime()),
      clientId: r.client.id,
      userId: ctx.userId as string,
      codeHash: hashToken(code),
      redirectUri: r.redirectUri,
      redirectUriGiven: r.redirectUriGiven,
      scopes: r.scopes,
      codeChallenge: r.codeChallenge ?? null,
      codeChallengeMethod: r.codeChallengeMethod ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    });
  });
  return redirectTo(r.redirectUri, { code, state: r.state, iss: deps.issuer });
}

/** The adviser said no (RFC 6749 §4.1.2.1 access_denied). */
function denied(deps: AuthorizeDeps, r: Consentable): string {
  return redirectTo(r.redirectUri, {
    error: 'access_denied',
    error_description: 'The user did not allow access',
    state: r.state,
    iss: deps.issuer,
  });
}

/** The adviser's name and e-mail for the consent page. */
export async function whoConsents(deps: AuthorizeDeps, ctx: RequestContext) {
  const user = await inTenant(deps.database, ctx, (tx) => userById(tx, ctx, ctx.userId as string));
  return { name: user?.name ?? '', email: user?.email ?? '' };
}
