import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { findOAuthToken, type OAuthTokenRow } from '../../platform/http/credentials.repository';
import type { Clock } from '../../platform/kernel/clock';
import { clientContext } from '../../platform/kernel/context';
import { authenticateClient, type EndpointError, type FormRequest, fail } from './client-auth';
import { hashToken } from './token-formats';
import { type ClientHit, oauthTokenRepository } from './tokens.repository';

/** RFC 7009 revocation and RFC 7662 introspection: what they need. */
export interface EndpointDeps {
  database: Database;
  clock: Clock;
  /** The authorization server's issuer (BASE_URL). */
  issuer: string;
}

const tokenParam = (req: FormRequest): string | EndpointError => {
  const token = req.form.token;
  if (typeof token !== 'string' || token === '')
    return fail(400, 'invalid_request', 'Missing parameter: token');
  return token;
};

/** The token if it exists and was issued to this client (other clients' tokens are treated as unknown). */
async function ownToken(
  deps: EndpointDeps,
  client: ClientHit,
  token: string,
): Promise<OAuthTokenRow | undefined> {
  if (!/^ad[tr]_[0-9A-Za-z]{40}$/.test(token)) return undefined;
  const hit = await findOAuthToken(deps.database.db, hashToken(token));
  return hit && hit.client_id === client.id && hit.organisation_id === client.organisation_id
    ? hit
    : undefined;
}

/**
 * RFC 7009: revokes an access token, or a refresh token and everything its consent issued. Unknown,
 * invalid and other clients' tokens are answered the same 200 (nothing to learn from it).
 */
export async function revoke(
  deps: EndpointDeps,
  req: FormRequest,
): Promise<{ status: 200; body: Record<string, never> } | EndpointError> {
  const who = await authenticateClient(deps.database, req);
  if ('error' in who) return who.error;
  const token = tokenParam(req);
  if (typeof token !== 'string') return token;
  const hit = await ownToken(deps, who.client, token);
  if (hit && !hit.revoked_at) {
    const now = deps.clock.now();
    const ctx = clientContext(
      hit.organisation_id,
      now,
      { clientId: hit.client_id, userId: hit.user_id },
      'OAuth revocation endpoint',
    );
    await inTenant(deps.database, ctx, async (tx) => {
      const tokens = oauthTokenRepository(tx, ctx);
      if (hit.kind === 'refresh' && hit.family_id) await tokens.revokeFamily(hit.family_id, now);
      else await tokens.revoke(hit.token_id, now);
    });
  }
  return { status: 200, body: {} };
}

export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  token_type?: 'Bearer' | 'refresh_token';
  exp?: number;
  iat?: number;
  sub?: string;
  iss?: string;
  organisation_id?: string;
}

const seconds = (at: Date | string) => Math.floor(new Date(at).getTime() / 1000);

/**
 * RFC 7662: whether a token is active now (not expired on the clock, not revoked, its client enabled
 * and its user active) and what it is. A client learns only about its own tokens: any other is
 * `{active:false}`.
 */
export async function introspect(
  deps: EndpointDeps,
  req: FormRequest,
): Promise<{ status: 200; body: Introspection } | EndpointError> {
  const who = await authenticateClient(deps.database, req);
  if ('error' in who) return who.error;
  const token = tokenParam(req);
  if (typeof token !== 'string') return token;
  const hit = await ownToken(deps, who.client, token);
  const active =
    hit !== undefined &&
    !hit.revoked_at &&
    !hit.client_disabled_at &&
    hit.user_status === 'active' &&
    new Date(hit.expires_at).getTime() > deps.clock.now().getTime();
  if (!active || !hit) return { status: 200, body: { active: false } };
  return {
    status: 200,
    body: {
      active: true,
      scope: hit.scopes.join(' '),
      client_id: hit.public_client_id,
      token_type: hit.kind === 'access' ? 'Bearer' : 'refresh_token',
      exp: seconds(hit.expires_at),
      iat: seconds(hit.created_at),
      sub: hit.user_id,
      iss: deps.issuer,
      organisation_id: hit.organisation_id,
    },
  };
}

/** RFC 8414 authorization server metadata. */
export function serverMetadata(issuer: string, scopes: readonly string[]) {
  const api = `${issuer}/api/v1/auth/oauth`;
  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer,
    authorization_endpoint: `${api}/authorize`,
    token_endpoint: `${api}/token`,
    revocation_endpoint: `${api}/revoke`,
    introspection_endpoint: `${api}/introspect`,
    scopes_supported: [...scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    introspection_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}
