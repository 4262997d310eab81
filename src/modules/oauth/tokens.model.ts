import {
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
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { findOAuthToken, type OAuthTokenRow } from '../../platform/http/credentials.repository';
import type { Clock } from '../../platform/kernel/clock';
import { clientContext, type RequestContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { userById } from '../organisations';
import { verifiedClient } from './client-auth';
import { CODE_FORMAT, hashToken, newAccessToken, newRefreshToken, REFRESH_FORMAT } from './token-formats';
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

interface OurClient extends Client {
  hit: ClientHit;
}

/** Who a token acts for, and the family (one consent) its refresh chain belongs to. */
interface OurUser extends User {
  id: string;
  familyId: string | null;
}

type Model = AuthorizationCodeModel & RefreshTokenModel & ClientCredentialsModel;

/**
 * The PostgreSQL model of `@node-oauth/oauth2-server`. Expiry is decided on the app's clock (tests move
 * it); the library compares deadlines with the real time, so it is handed the same remaining time.
 */
export function oauthModel(deps: TokenDeps): Model {
  return {
    ...clientMethods(deps),
    async generateAccessToken() {
      return newAccessToken();
    },
    async generateRefreshToken() {
      return newRefreshToken();
    },
    ...authorizationCodeMethods(deps),
    ...refreshTokenMethods(deps),
    saveToken: (token: Token, client: Client, user: User) => saveToken(deps, token, client, user),
    async getAccessToken() {
      // Bearer tokens are checked by the platform's BearerAuthenticator, not by the library.
      return false;
    },
  };
}

const now = (deps: TokenDeps) => deps.clock.now();

/** A deadline on the app's clock as the same remaining time on the real one (the library's). */
const realDeadline = (deps: TokenDeps, at: Date | string) =>
  new Date(Date.now() + (new Date(at).getTime() - now(deps).getTime()));

/** Work at the token endpoint, audited as the client (and the user its tokens act for). */
function inOrg<T>(
  deps: TokenDeps,
  organisationId: string,
  acting: { clientId: string; userId: string | null },
  work: (tx: Tx, ctx: RequestContext) => Promise<T>,
) {
  const ctx = clientContext(organisationId, now(deps), acting, 'OAuth token endpoint');
  return inTenant(deps.database, ctx, (tx) => work(tx, ctx));
}

const activeUser = (deps: TokenDeps, organisationId: string, clientId: string, userId: string) =>
  inOrg(
    deps,
    organisationId,
    { clientId, userId },
    async (tx, ctx) => (await userById(tx, ctx, userId))?.status === 'active',
  );

/** A second use of a code or a refresh token: everything that consent issued is revoked. */
const revokeFamily = (
  deps: TokenDeps,
  organisationId: string,
  acting: { clientId: string; userId: string | null },
  familyId: string | null,
) =>
  familyId
    ? inOrg(deps, organisationId, acting, (tx, ctx) =>
        oauthTokenRepository(tx, ctx).revokeFamily(familyId, now(deps)),
      )
    : 0;

/** The client, the user a client's own tokens act for (its service user), and the scopes it gets. */
function clientMethods(deps: TokenDeps) {
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
      if (!(await activeUser(deps, hit.organisation_id, hit.id, hit.service_user_id))) return false;
      return { id: hit.service_user_id, familyId: null } satisfies OurUser;
    },
    /** Granted = requested ∩ allowed; nothing requested → all the client is allowed. */
    async validateScope(_user: User, client: Client, scope?: string[]) {
      const allowed = (client as OurClient).hit.scopes;
      if (!scope || scope.length === 0) return allowed;
      const granted = allowed.filter((s) => scope.includes(s));
      return granted.length > 0 ? granted : false;
    },
  };
}

/** Authorization codes: looked up and spent (single use; a second use revokes the consent's tokens). */
function authorizationCodeMethods(deps: TokenDeps) {
  return {
    async getAuthorizationCode(code: string) {
      if (!CODE_FORMAT.test(code)) return false;
      const hit = await findCode(deps.database.db, hashToken(code));
      if (!hit) return false;
      if (hit.used_at) {
        await revokeFamily(
          deps,
          hit.organisation_id,
          { clientId: hit.client_id, userId: hit.user_id },
          hit.id,
        );
        return false;
      }
      if (!(await activeUser(deps, hit.organisation_id, hit.client_id, hit.user_id))) return false;
      return {
        authorizationCode: code,
        expiresAt: realDeadline(deps, hit.expires_at),
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
      const spent = await inOrg(deps, hit.organisation_id, acting, (tx, ctx) =>
        oauthCodeRepository(tx, ctx).spend(hit.id, now(deps)),
      );
      if (!spent) await revokeFamily(deps, hit.organisation_id, acting, hit.id);
      return spent;
    },
    async saveAuthorizationCode() {
      // Codes are issued by the consent page (authorize.service), not through the library.
      return false as never;
    },
  };
}

/** Refresh tokens: looked up and rotated (a second use revokes the consent's tokens). */
function refreshTokenMethods(deps: TokenDeps) {
  return {
    async getRefreshToken(refreshToken: string) {
      if (!REFRESH_FORMAT.test(refreshToken)) return false;
      const hit = await findOAuthToken(deps.database.db, hashToken(refreshToken));
      if (hit?.kind !== 'refresh') return false;
      if (hit.revoked_at) {
        await revokeFamily(
          deps,
          hit.organisation_id,
          { clientId: hit.client_id, userId: hit.user_id },
          hit.family_id,
        );
        return false;
      }
      if (hit.client_disabled_at || hit.user_status !== 'active') return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: realDeadline(deps, hit.expires_at),
        scope: hit.scopes,
        client: { id: hit.client_id, grants: [] },
        user: { id: hit.user_id, familyId: hit.family_id } satisfies OurUser,
        hit,
      };
    },
    async revokeToken(token: RefreshToken | Token) {
      const hit = (token as RefreshToken & { hit: OAuthTokenRow }).hit;
      const acting = { clientId: hit.client_id, userId: hit.user_id };
      const revoked = await inOrg(deps, hit.organisation_id, acting, (tx, ctx) =>
        oauthTokenRepository(tx, ctx).revoke(hit.token_id, now(deps)),
      );
      // Two requests raced with one refresh token: the loser is a reuse too.
      if (!revoked) await revokeFamily(deps, hit.organisation_id, acting, hit.family_id);
      return revoked;
    },
  };
}

/** Stores the tokens the library issued: the access token, and a refresh token if the client may use one. */
async function saveToken(deps: TokenDeps, token: Token, client: Client, user: User) {
  const hit = (client as OurClient).hit;
  const { id: userId, familyId } = user as OurUser;
  const at = now(deps);
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
  await inOrg(deps, hit.organisation_id, { clientId: hit.id, userId }, async (tx, ctx) => {
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
}
