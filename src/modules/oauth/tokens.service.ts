import OAuth2Server from '@node-oauth/oauth2-server';
import { findOAuthToken } from '../../platform/http/credentials.repository';
import {
  authenticateClient,
  basicCredentials,
  type FormRequest,
  oneAuthenticationMethod,
} from './client-auth';
import type { OAuthForm } from './oauth.forms';
import { hashToken, REFRESH_FORMAT } from './token-formats';
import { oauthModel, type TokenDeps } from './tokens.model';

/** The grants the token endpoint knows; the library's password grant is not one of them (RFC 9700). */
export const GRANTS = ['client_credentials', 'authorization_code', 'refresh_token'] as const;

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
    // A copy, null-prototype like the form: the scope is tidied below before the library reads it.
    const body: OAuthForm = Object.assign(Object.create(null), req.form);
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
