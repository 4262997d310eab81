import { createHash, timingSafeEqual } from 'node:crypto';
import OAuth2Server, {
  type Client,
  type ClientCredentialsModel,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';
import type { Clock } from '../../platform/clock';
import { systemContext } from '../../platform/context';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { newId } from '../../platform/ids';
import { userRepository } from '../admin';
import { hashSecret, random62 } from './oauth.service';
import { type ClientHit, findClientById, oauthTokenRepository } from './tokens.repository';

export interface TokenDeps {
  database: Database;
  clock: Clock;
  /** Lifetime of access tokens, in seconds (spec 2.6: 28800). */
  accessTokenSeconds: number;
}

/** An access token: `adt_` + 40 base62 characters; only its SHA-256 is stored. */
export const newAccessToken = () => `adt_${random62(40)}`;
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

interface OurClient extends Client {
  hit: ClientHit;
}

function secretMatches(secret: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The PostgreSQL model of `@node-oauth/oauth2-server` (client credentials for now). */
function modelOf(deps: TokenDeps): ClientCredentialsModel {
  return {
    async getClient(clientId: string, clientSecret: string | null) {
      if (typeof clientId !== 'string' || !/^adc_[0-9A-Za-z]{24}$/.test(clientId)) return false;
      const hit = await findClientById(deps.database.db, clientId);
      if (!hit || hit.disabled_at) return false;
      if (
        hit.type === 'confidential' &&
        !(typeof clientSecret === 'string' && secretMatches(clientSecret, hit.secret_hash))
      ) {
        return false;
      }
      return { id: hit.id, grants: hit.grants, redirectUris: hit.redirect_uris, hit } satisfies OurClient;
    },
    async getUserFromClient(client: Client) {
      const hit = (client as OurClient).hit;
      if (!hit.service_user_id) return false;
      const ctx = systemContext(hit.organisation_id, deps.clock.now());
      const user = await inTenant(deps.database, ctx, (tx) =>
        userRepository(tx, ctx).find(hit.service_user_id as string),
      );
      // A deactivated service user gets no new tokens (its live ones are refused on use: 403).
      if (user?.status !== 'active') return false;
      return { id: user.id };
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
    async saveToken(token: Token, client: Client, user: User) {
      const hit = (client as OurClient).hit;
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + deps.accessTokenSeconds * 1000);
      const ctx = systemContext(hit.organisation_id, now);
      await inTenant(deps.database, ctx, (tx) =>
        oauthTokenRepository(tx, ctx).insert([
          {
            id: newId(now.getTime()),
            clientId: hit.id,
            userId: user.id as string,
            kind: 'access',
            tokenHash: hashToken(token.accessToken),
            scopes: token.scope ?? [],
            familyId: null,
            createdAt: now,
            expiresAt,
          },
        ]),
      );
      return { ...token, accessTokenExpiresAt: expiresAt, client, user };
    },
    async getAccessToken() {
      // Bearer tokens are checked by the platform's BearerAuthenticator, not by the library.
      return false;
    },
  };
}

/** What the token endpoint answers: spec 2.6 on success; RFC 6749 §5.2 in the spec's error shape. */
export type TokenAnswer =
  | { status: 200; body: { token_type: 'Bearer'; access_token: string; expires_in: number; scope: string } }
  | {
      status: number;
      body: { success: false; error: string; error_description: string; code: number };
      headers: Record<string, string>;
    };

export function tokenEndpoint(deps: TokenDeps) {
  const server = new OAuth2Server({
    model: modelOf(deps),
    accessTokenLifetime: deps.accessTokenSeconds,
    allowExtendedTokenAttributes: false,
    requireClientAuthentication: { client_credentials: true },
  });
  return async (req: Request, res: Response): Promise<TokenAnswer> => {
    const request = new OAuth2Server.Request({
      method: req.method,
      headers: req.headers as Record<string, string>,
      query: {},
      body: req.body ?? {},
    });
    const response = new OAuth2Server.Response(res);
    try {
      const token = await server.token(request, response);
      return {
        status: 200,
        body: {
          token_type: 'Bearer',
          access_token: token.accessToken,
          expires_in: deps.accessTokenSeconds,
          scope: (token.scope ?? []).join(' '),
        },
      };
    } catch (err) {
      const e = err as { name?: string; code?: number; message?: string };
      const code = typeof e.code === 'number' && e.code >= 400 && e.code < 600 ? e.code : 500;
      const error = code >= 500 ? 'server_error' : (e.name ?? 'invalid_request');
      const headers: Record<string, string> = {};
      if (error === 'invalid_client' && req.headers.authorization)
        headers['WWW-Authenticate'] = 'Basic realm="ActionDesk"';
      return {
        status: code,
        body: {
          success: false,
          error,
          error_description: code >= 500 ? 'The token could not be issued; try again' : (e.message ?? error),
          code,
        },
        headers,
      };
    }
  };
}
