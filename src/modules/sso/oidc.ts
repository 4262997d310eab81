import type { Clock } from '../../platform/kernel/clock';
import { LOOPBACK_HOSTS } from '../../platform/kernel/urls';
import { SafeHttpClient, type SafeHttpPolicy } from '../../platform/outbound/safe-http';

/** What single sign-on reads from a provider's discovery document (OpenID Connect Discovery 1.0). */
export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** The ID token signature algorithms the provider uses (RS256 when it does not say). */
  signingAlgorithms: string[];
}

/** A provider did not answer as OpenID Connect says: its address, discovery, keys or token endpoint. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** The ID token was refused: signature, issuer, audience, expiry or nonce. */
export class IdTokenError extends Error {
  override name = 'IdTokenError';
}

export interface IdTokenClaims {
  sub: string;
  email?: string;
  emailVerified: boolean;
  domainVerified: boolean;
  name?: string;
  /** Google-type: the Workspace domain of the account (absent for a consumer account). */
  hostedDomain?: string;
}

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 512 * 1024;
const METADATA_TTL_MS = 10 * 60_000;
/** Keys are fetched again at most this often when a token names a key we do not have (rotation). */
const JWKS_REFETCH_MS = 60_000;
/** And at least this often: a key the provider withdrew stops being trusted. */
const JWKS_TTL_MS = 6 * 3_600_000;
/**
 * A Microsoft-type directory named by its domain (contoso.onmicrosoft.com) is discovered under that
 * name, but its documents and tokens name the directory by its GUID: that issuer is the one to expect.
 */
const MICROSOFT_TENANT_ISSUER =
  /^https:\/\/login\.microsoftonline\.com\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/v2\.0$/;
/** Clock skew allowed between the provider and us when checking exp, nbf and iat. */
const CLOCK_TOLERANCE_S = 120;
/** Asymmetric algorithms only: a symmetric one would make the client secret the signing key. */
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/;

type Jose = typeof import('jose');
let jose: Promise<Jose> | undefined;
// jose is an ES module: loaded once, on first use.
const loadJose = () => {
  jose ??= import('jose');
  return jose;
};

/** An endpoint of the discovery document: https, or http only on the loopback address (and when allowed). */
const endpoint = (value: unknown, allowHttp: boolean): string => {
  if (typeof value !== 'string' || !URL.canParse(value))
    throw new ProviderError('the discovery document lacks an endpoint');
  const url = new URL(value);
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(allowHttp && loopback && url.protocol === 'http:'))
    throw new ProviderError(`the provider names an endpoint that is not https (${url.origin})`);
  return url.href;
};

/**
 * The OpenID Connect side of single sign-on: each provider's discovery document and signing keys
 * (cached), the token request, and ID token verification. Every request goes through the safe HTTP
 * client, so a provider's address cannot point inside our network unless SSO_PRIVATE_NETWORKS lists it.
 */
export class OidcClient {
  private readonly http: SafeHttpClient;
  private readonly metadataCache = new Map<string, { at: number; value: Promise<ProviderMetadata> }>();
  private readonly keysCache = new Map<string, { at: number; keys: Promise<unknown> }>();

  constructor(
    private readonly policy: SafeHttpPolicy,
    private readonly clock: Clock,
  ) {
    this.http = new SafeHttpClient({ ...policy, keepAlive: false });
  }

  private async getJson(url: string, what: string): Promise<Record<string, unknown>> {
    let res: Awaited<ReturnType<SafeHttpClient['get']>>;
    try {
      res = await this.http.get(url, {
        headers: { accept: 'application/json', 'user-agent': 'ActionDesk-SSO/1' },
        timeoutMs: TIMEOUT_MS,
        maxBodyBytes: MAX_BYTES,
      });
    } catch (err) {
      throw new ProviderError(
        `${what} could not be read from ${new URL(url).origin}: ${(err as Error).message}`,
      );
    }
    if (res.status !== 200)
      throw new ProviderError(`${what} answered ${res.status} at ${new URL(url).origin}`);
    try {
      const value = JSON.parse(res.body) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new ProviderError(`${what} at ${new URL(url).origin} is not a JSON object`);
  }

  /**
   * The provider's endpoints, from `{issuer}/.well-known/openid-configuration` (cached ten minutes).
   * `microsoftDomain`: the issuer names a Microsoft-type directory by its domain, so the document's own
   * issuer (the directory's GUID) is accepted and expected in tokens.
   */
  metadata(issuer: string, opts: { microsoftDomain?: boolean } = {}): Promise<ProviderMetadata> {
    const now = this.clock.now().getTime();
    const key = `${opts.microsoftDomain ? 'ms:' : ''}${issuer}`;
    const cached = this.metadataCache.get(key);
    if (cached && now - cached.at < METADATA_TTL_MS) return cached.value;
    const value = this.discover(issuer, opts.microsoftDomain === true);
    this.metadataCache.set(key, { at: now, value });
    value.catch(() => this.metadataCache.delete(key));
    return value;
  }

  private async discover(issuer: string, microsoftDomain: boolean): Promise<ProviderMetadata> {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const doc = await this.getJson(url, 'The discovery document');
    // OpenID Connect Discovery §4.3: the document's issuer is exactly the one asked for.
    const named =
      doc.issuer === issuer ||
      (microsoftDomain && typeof doc.issuer === 'string' && MICROSOFT_TENANT_ISSUER.test(doc.issuer));
    if (!named) {
      throw new ProviderError(
        `the discovery document names another issuer (${String(doc.issuer).slice(0, 200)})`,
      );
    }
    const allowHttp = this.policy.allowHttp;
    const algs = Array.isArray(doc.id_token_signing_alg_values_supported)
      ? doc.id_token_signing_alg_values_supported.filter(
          (a): a is string => typeof a === 'string' && ASYMMETRIC.test(a),
        )
      : ['RS256'];
    return {
      issuer: doc.issuer as string,
      authorizationEndpoint: endpoint(doc.authorization_endpoint, allowHttp),
      tokenEndpoint: endpoint(doc.token_endpoint, allowHttp),
      jwksUri: endpoint(doc.jwks_uri, allowHttp),
      signingAlgorithms: algs.length > 0 ? algs : ['RS256'],
    };
  }

  private keys(jwksUri: string, fresh: boolean): Promise<unknown> {
    const now = this.clock.now().getTime();
    const cached = this.keysCache.get(jwksUri);
    const age = cached ? now - cached.at : Number.POSITIVE_INFINITY;
    if (cached && age < JWKS_TTL_MS && !(fresh && age >= JWKS_REFETCH_MS)) return cached.keys;
    const keys = this.getJson(jwksUri, 'The signing keys');
    this.keysCache.set(jwksUri, { at: now, keys });
    keys.catch(() => this.keysCache.delete(jwksUri));
    return keys;
  }

  /**
   * The authorization code exchanged at the token endpoint (client_secret_post, RFC 6749 §4.1.3);
   * answers the token response or throws with the provider's `error` and status.
   */
  async exchange(
    tokenEndpoint: string,
    form: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    let res: Awaited<ReturnType<SafeHttpClient['post']>>;
    try {
      res = await this.http.post(tokenEndpoint, {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'user-agent': 'ActionDesk-SSO/1',
        },
        body: new URLSearchParams(form).toString(),
        timeoutMs: TIMEOUT_MS,
        maxBodyBytes: MAX_BYTES,
      });
    } catch (err) {
      throw new ProviderError(`the token endpoint could not be reached: ${(err as Error).message}`);
    }
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(res.body) as unknown;
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      // not JSON: reported by status below
    }
    return { status: res.status, body };
  }

  /** An access token of the client itself (client credentials, RFC 6749 §4.4), e.g. for the directory. */
  async clientCredentials(
    tokenEndpoint: string,
    client: { clientId: string; clientSecret: string; scope: string },
  ): Promise<string> {
    const { status, body } = await this.exchange(tokenEndpoint, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: client.scope,
    });
    if (status !== 200 || typeof body.access_token !== 'string') {
      const error = typeof body.error === 'string' ? body.error.slice(0, 100) : `status ${status}`;
      throw new ProviderError(`the token endpoint refused the client credentials (${error})`);
    }
    return body.access_token;
  }

  /**
   * Verifies an ID token (OpenID Connect Core §3.1.3.7): signature by one of the provider's published
   * keys with an algorithm it declares (never `none` or a symmetric one), `iss` the provider's issuer,
   * `aud` our client id (and `azp` it when there are several audiences), `exp`/`iat`/`nbf` against our
   * clock with two minutes' tolerance, and `nonce` the one this browser's sign-in sent.
   */
  async verifyIdToken(
    idToken: string,
    expected: { metadata: ProviderMetadata; clientId: string; nonce: string },
  ): Promise<IdTokenClaims> {
    const j = await loadJose();
    const options = {
      issuer: expected.metadata.issuer,
      audience: expected.clientId,
      algorithms: expected.metadata.signingAlgorithms,
      currentDate: this.clock.now(),
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
    };
    const verifyWith = async (fresh: boolean) => {
      const set = j.createLocalJWKSet((await this.keys(expected.metadata.jwksUri, fresh)) as never);
      return j.jwtVerify(idToken, set, options);
    };
    let payload: Record<string, unknown>;
    try {
      try {
        payload = (await verifyWith(false)).payload;
      } catch (err) {
        // A key we have not seen: the provider may have rotated its keys since we fetched them.
        if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw err;
        payload = (await verifyWith(true)).payload;
      }
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw new IdTokenError(`the ID token was refused: ${(err as Error).message}`);
    }
    const several = Array.isArray(payload.aud) && payload.aud.length > 1;
    if ((several || payload.azp !== undefined) && payload.azp !== expected.clientId) {
      throw new IdTokenError('the ID token was refused: its authorized party (azp) is not our client');
    }
    if (payload.nonce !== expected.nonce) {
      throw new IdTokenError('the ID token was refused: its nonce is not the one this sign-in sent');
    }
    const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 320 ? v : undefined);
    const sub = text(payload.sub);
    if (!sub) throw new IdTokenError('the ID token was refused: it has no usable subject');
    return {
      sub,
      email: text(payload.email)?.toLowerCase(),
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      // Microsoft-type directories: the e-mail's domain is verified by the directory's owner (the
      // optional claim xms_edov); they seldom send email_verified.
      domainVerified: payload.xms_edov === true || payload.xms_edov === '1' || payload.xms_edov === 'true',
      name: text(payload.name),
      hostedDomain: text(payload.hd)?.toLowerCase(),
    };
  }
}
