import { createHash } from 'node:crypto';
import OAuth2Server, {
  type AuthorizationCode,
  type AuthorizationCodeModel,
  type Client,
  type ClientCredentialsModel,
  InvalidGrantError,
  InvalidScopeError,
  type RefreshToken,
  type RefreshTokenModel,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import type { Clock } from '../../platform/clock';
import { clientContext, type RequestContext } from '../../platform/context';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { findOAuthToken, type OAuthTokenRow } from '../../platform/http/credentials.repository';
import { newId } from '../../platform/ids';
import { userById } from '../organisations';
import {
  authenticateClient,
  basicCredentials,
  type FormRequest,
  oneAuthenticationMethod,
  verifiedClient,
} from './client-auth';
import { random62 } from './oauth.service';
import {
  type ClientHit,
  type CodeHit,
  findCode,
  oauthCodeRepository,
  oauthTokenRepository,
} from './tokens.repository';

export interface TokenDeps {
  database: Database;
  clock: Clock;
  /** Lifetime of access tokens, in seconds (spec 2.6: 28800). */
  accessTokenSeconds: number;
  /** Lifetime of refresh tokens, in seconds; each use rotates the token. */
  refreshTokenSeconds: number;
}

/** The grants the token endpoint knows; the library's password grant is not one of them (RFC 9700). */
export const GRANTS = ['client_credentials', 'authorization_code', 'refresh_token'] as const;

/** An access token: `adt_` + 40 base62 characters; only its SHA-256 is stored. */
export const newAccessToken = () => `adt_${random62(40)}`;
/** A refresh token: `adr_` + 40 base62 characters; stored as SHA-256, rotated on every use. */
export const newRefreshToken = () => `adr_${random62(40)}`;
/** An authorization code: `adg_` + 40 base62 characters; stored as SHA-256, single-use. */
export const newAuthorizationCode = () => `adg_${random62(40)}`;
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const REFRESH_FORMAT = /^adr_[0-9A-Za-z]{40}$/;
const CODE_FORMAT = /^adg_[0-9A-Za-z]{40}$/;

interface OurClient extends Client {
  hit: ClientHit;
}

/** Who a token acts for, and the family (one consent) its refresh chain belongs to. */
interface OurUser extends User {
  id: string;
  familyId: string | null;
}

/**
 * The PostgreSQL model of `@node-oauth/oauth2-server`. Expiry is decided on the app's clock (tests move
 * it); the library compares deadlines with the real time, so it is handed the same remaining time.
 */
export function oauthModel(
  deps: TokenDeps,
): AuthorizationCodeModel & RefreshTokenModel & ClientCredentialsModel {
  const now = () => deps.clock.now();
  const realDeadline = (at: Date | string) =>
    new Date(Date.now() + (new Date(at).getTime() - now().getTime()));
  /** Work at the token endpoint, audited as the client (and the user its tokens act for). */
  const inOrg = <T>(
    organisationId: string,
    acting: { clientId: string; userId: string | null },
    work: (tx: Tx, ctx: RequestContext) => Promise<T>,
  ) => {
    const ctx = clientContext(organisationId, now(), acting, 'OAuth token endpoint');
    return inTenant(deps.database, ctx, (tx) => work(tx, ctx));
  };
  const activeUser = (organisationId: string, clientId: string, userId: string) =>
    inOrg(
      organisationId,
      { clientId, userId },
      async (tx, ctx) => (await userById(tx, ctx, userId))?.status === 'active',
    );
  /** A second use of a code or a refresh token: everything that consent issued is revoked. */
  const revokeFamily = (
    organisationId: string,
    acting: { clientId: string; userId: string | null },
    familyId: string | null,
  ) =>
    familyId
      ? inOrg(organisationId, acting, (tx, ctx) =>
          oauthTokenRepository(tx, ctx).revokeFamily(familyId, now()),
        )
      : 0;

  return {
    async getClient(clientId: string, clientSecret: string | null) {
      const hit = await verifiedClient(deps.database, clientId, clientSecret);
      if (!hit) return false;
      return { id: hit.id, grants: hit.grants, redirectUris: hit.redirect_uris, hit } satisfies OurClient;
    },
    async getUserFromClient(client: Client) {
      const hit = (client as OurClient).hit;
      if (!hit.service_user_id) return false;
      // A deactivated service user gets no new tokens (its live ones are refused on use: 403).
      if (!(await activeUser(hit.organisation_id, hit.id, hit.service_user_id))) return false;
      return { id: hit.service_user_id, familyId: null } satisfies OurUser;
    },
    /** Granted = requested ∩ allowed; nothing requested → all the client is allowed. */
    async validateScope(_user: User, client: Client, scope?: string[]) {
      const allowed = (client as OurClient).hit.scopes;
      if (!scope || scope.length === 0) return allowed;
      const granted = allowed.filter((s) => scope.includes(s));
      return granted.length > 0 ? granted : false;
    },
    async generateAccessToken() {
      return newAccessToken();
    },
    async generateRefreshToken() {
      return newRefreshToken();
    },
    async getAuthorizationCode(code: string) {
      if (!CODE_FORMAT.test(code)) return false;
      const hit = await findCode(deps.database.db, hashToken(code));
      if (!hit) return false;
      if (hit.used_at) {
        await revokeFamily(hit.organisation_id, { clientId: hit.client_id, userId: hit.user_id }, hit.id);
        return false;
      }
      if (!(await activeUser(hit.organisation_id, hit.client_id, hit.user_id))) return false;
      return {
        authorizationCode: code,
        expiresAt: realDeadline(hit.expires_at),
        // Named in the authorization request → the token request must repeat it (RFC 6749 §4.1.3);
        // the library skips the check for an empty one.
        redirectUri: hit.redirect_uri_given ? hit.redirect_uri : '',
        scope: hit.scopes,
        codeChallenge: hit.code_challenge ?? undefined,
        codeChallengeMethod: hit.code_challenge_method ?? undefined,
        client: { id: hit.client_id, grants: [] },
        user: { id: hit.user_id, familyId: hit.id } satisfies OurUser,
        hit,
      };
    },
    async revokeAuthorizationCode(code: AuthorizationCode) {
      const hit = (code as AuthorizationCode & { hit: CodeHit }).hit;
      const acting = { clientId: hit.client_id, userId: hit.user_id };
      const spent = await inOrg(hit.organisation_id, acting, (tx, ctx) =>
        oauthCodeRepository(tx, ctx).spend(hit.id, now()),
      );
      if (!spent) await revokeFamily(hit.organisation_id, acting, hit.id);
      return spent;
    },
    async saveAuthorizationCode() {
      // Codes are issued by the consent page (authorize.service), not through the library.
      return false as never;
    },
    async getRefreshToken(refreshToken: string) {
      if (!REFRESH_FORMAT.test(refreshToken)) return false;
      const hit = await findOAuthToken(deps.database.db, hashToken(refreshToken));
      if (hit?.kind !== 'refresh') return false;
      if (hit.revoked_at) {
        await revokeFamily(
          hit.organisation_id,
          { clientId: hit.client_id, userId: hit.user_id },
          hit.family_id,
        );
        return false;
      }
      if (hit.client_disabled_at || hit.user_status !== 'active') return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: realDeadline(hit.expires_at),
        scope: hit.scopes,
        client: { id: hit.client_id, grants: [] },
        user: { id: hit.user_id, familyId: hit.family_id } satisfies OurUser,
        hit,
      };
    },
    async revokeToken(token: RefreshToken | Token) {
      const hit = (token as RefreshToken & { hit: OAuthTokenRow }).hit;
      const acting = { clientId: hit.client_id, userId: hit.user_id };
      const revoked = await inOrg(hit.organisation_id, acting, (tx, ctx) =>
        oauthTokenRepository(tx, ctx).revoke(hit.token_id, now()),
      );
      // Two requests raced with one refresh token: the loser is a reuse too.
      if (!revoked) await revokeFamily(hit.organisation_id, acting, hit.family_id);
      return revoked;
    },
    async saveToken(token: Token, client: Client, user: User) {
      const hit = (client as OurClient).hit;
      const { id: userId, familyId } = user as OurUser;
      const at = now();
      // The client's scopes may have shrunk since the consent: never more than it is allowed today.
      const scopes = (token.scope ?? []).filter((s) => hit.scopes.includes(s));
      if (scopes.length === 0)
        throw new InvalidScopeError('Invalid scope: the client may no longer use these scopes');
      const accessExpiresAt = new Date(at.getTime() + deps.accessTokenSeconds * 1000);
      const refreshExpiresAt = new Date(at.getTime() + deps.refreshTokenSeconds * 1000);
      // A client without the refresh_token grant gets no refresh token (it could never use one).
      const refreshToken = hit.grants.includes('refresh_token') ? token.refreshToken : undefined;
      const family = refreshToken ? (familyId ?? newId(at.getTime())) : familyId;
      const row = (kind: 'access' | 'refresh', value: string, expiresAt: Date) => ({
        id: newId(at.getTime()),
        clientId: hit.id,
        userId,
        kind,
        tokenHash: hashToken(value),
        scopes,
        familyId: family,
        createdAt: at,
        expiresAt,
      });
      await inOrg(hit.organisation_id, { clientId: hit.id, userId }, async (tx, ctx) => {
        // A consent whose code or refresh token was used twice is dead: a request that won the race
        // with the second use must not add live tokens to it (the family's code row is locked, so a
        // revocation either happened before this — refused here — or waits and then revokes these too).
        if (family && !(await oauthCodeRepository(tx, ctx).familyAlive(family))) {
          throw new InvalidGrantError('Invalid grant: this authorization has been revoked');
        }
        await oauthTokenRepository(tx, ctx).insert([
          row('access', token.accessToken, accessExpiresAt),
          ...(refreshToken ? [row('refresh', refreshToken, refreshExpiresAt)] : []),
        ]);
      });
      return {
        ...token,
        refreshToken,
        scope: scopes,
        accessTokenExpiresAt: accessExpiresAt,
        refreshTokenExpiresAt: refreshToken ? refreshExpiresAt : undefined,
        client,
        user,
      };
    },
    async getAccessToken() {
      // Bearer tokens are checked by the platform's BearerAuthenticator, not by the library.
      return false;
    },
  };
}

/** What the token endpoint answers: spec 2.6 on success; RFC 6749 §5.2 in the spec's error shape. */
export type TokenAnswer =
  | {
      status: 200;
      body: {
        token_type: 'Bearer';
        access_token: string;
        expires_in: number;
        scope: string;
        refresh_token?: string;
      };
    }
  | {
      status: number;
      body: { success: false; error: string; error_description: string; code: number };
      headers: Record<string, string>;
    };

/**
 * The first requested scope a live refresh token of the authenticated client was not granted, if any.
 * Anything else (no or wrong client authentication, another client's, a rotated or expired token) is
 * left to the library, which refuses it in the usual way — reuse detection included.
 */
async function widens(
  deps: TokenDeps,
  req: FormRequest,
  refreshToken: string,
  scope: string,
): Promise<string | undefined> {
  if (!REFRESH_FORMAT.test(refreshToken)) return undefined;
  const who = await authenticateClient(deps.database, req);
  if ('error' in who) return undefined;
  const hit = await findOAuthToken(deps.database.db, hashToken(refreshToken));
  if (
    hit?.kind !== 'refresh' ||
    hit.client_id !== who.client.id ||
    hit.revoked_at ||
    new Date(hit.expires_at).getTime() <= deps.clock.now().getTime()
  ) {
    return undefined;
  }
  return scope.split(' ').find((s) => !hit.scopes.includes(s));
}

function tokenError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  return {
    status,
    body: { success: false as const, error, error_description: description, code: status },
    headers,
  };
}

export function tokenEndpoint(deps: TokenDeps) {
  const server = new OAuth2Server({
    model: oauthModel(deps),
    accessTokenLifetime: deps.accessTokenSeconds,
    refreshTokenLifetime: deps.refreshTokenSeconds,
    allowExtendedTokenAttributes: false,
    // Public clients (no secret) prove themselves with PKCE (codes) and the rotation of refresh tokens.
    requireClientAuthentication: {
      client_credentials: true,
      authorization_code: false,
      refresh_token: false,
    },
  });
  return async (req: FormRequest): Promise<TokenAnswer> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const grant = body.grant_type;
    if (typeof grant === 'string' && grant !== '' && !(GRANTS as readonly string[]).includes(grant)) {
      return tokenError(
        400,
        'unsupported_grant_type',
        `grant_type ${JSON.stringify(grant.slice(0, 100))} is not supported: use ${GRANTS.join(', ')}`,
      );
    }
    // RFC 6749 §3.1: a parameter is sent once. A blank scope is no scope (§6: then the original one).
    const repeated = Object.entries(body).find(([, v]) => Array.isArray(v));
    if (repeated) return tokenError(400, 'invalid_request', `${repeated[0].slice(0, 100)} must be sent once`);
    const twice = oneAuthenticationMethod(req);
    if (twice) return tokenError(twice.status, twice.body.error, twice.body.error_description, twice.headers);
    if (typeof body.scope === 'string') {
      const scope = body.scope.split(/\s+/).filter(Boolean).join(' ');
      if (scope === '') delete body.scope;
      else body.scope = scope;
    }
    // The library spends a refresh token before it checks the scope: a live token of the calling client
    // that only asks for too much must not cost the client its chain (its retry would look like a reuse).
    if (
      grant === 'refresh_token' &&
      typeof body.scope === 'string' &&
      typeof body.refresh_token === 'string'
    ) {
      const wider = await widens(deps, req, body.refresh_token, body.scope);
      if (wider)
        return tokenError(400, 'invalid_scope', `Invalid scope: the refresh token was not granted ${wider}`);
    }
    // The library reads HTTP Basic without the form-decoding RFC 6749 §2.3.1 asks for: it gets the
    // decoded id and secret instead.
    const headers = { ...req.headers } as Record<string, string>;
    const basic = basicCredentials(req.headers.authorization);
    if (basic)
      headers.authorization = `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`;
    const request = new OAuth2Server.Request({
      method: req.method,
      headers,
      query: {},
      body,
    });
    const response = new OAuth2Server.Response();
    try {
      const token = await server.token(request, response);
      return {
        status: 200,
        body: {
          token_type: 'Bearer',
          access_token: token.accessToken,
          expires_in: deps.accessTokenSeconds,
          scope: (token.scope ?? []).join(' '),
          ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
        },
      };
    } catch (err) {
      const e = err as { name?: string; code?: number; message?: string };
      const code = typeof e.code === 'number' && e.code >= 400 && e.code < 600 ? e.code : 500;
      if (code >= 500) return tokenError(500, 'server_error', 'The token could not be issued; try again');
      let error = e.name ?? 'invalid_request';
      // RFC 6749 §5.2: a redirect URI that differs from the authorization request's is invalid_grant.
      if (grant === 'authorization_code' && /redirect_uri/.test(e.message ?? '')) error = 'invalid_grant';
      // A client that failed to authenticate gets 401, however it sent its credentials (RFC 6749 §5.2).
      if (error === 'invalid_client') {
        return tokenError(401, error, e.message ?? error, { 'WWW-Authenticate': 'Basic realm="ActionDesk"' });
      }
      return tokenError(code, error, e.message ?? error);
    }
  };
}
