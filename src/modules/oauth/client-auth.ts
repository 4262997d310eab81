import { timingSafeEqual } from 'node:crypto';
import type { Database } from '../../platform/db/database';
import type { OAuthForm } from './oauth.forms';
import { hashSecret } from './oauth.service';
import { type ClientHit, findClientById } from './tokens.repository';

/**
 * HTTP Basic client credentials. RFC 6749 §2.3.1 form-encodes the id and the secret inside them (strict
 * clients such as openid-client send `adc%5F…`), so both are decoded.
 */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * What the OAuth endpoints read of an HTTP request: plain data (the router builds it), so the use cases
 * know no web framework.
 */
export interface FormRequest {
  readonly method: string;
  readonly headers: {
    readonly authorization?: string;
    readonly [name: string]: string | string[] | undefined;
  };
  /** The decoded form (application/x-www-form-urlencoded), parsed with `OAuthFields`. */
  readonly form: OAuthForm;
}

export interface EndpointError {
  status: number;
  body: { success: false; error: string; error_description: string; code: number };
  headers?: Record<string, string>;
}

export const fail = (status: number, error: string, description: string): EndpointError => ({
  status,
  body: { success: false, error, error_description: description, code: status },
  ...(status === 401 ? { headers: { 'WWW-Authenticate': 'Basic realm="ActionDesk"' } } : {}),
});

/**
 * RFC 6749 §2.3: a client uses one authentication method per request. Beside HTTP Basic, a
 * `client_secret` in the body (whatever its value) is a second method, and a body `client_id` naming
 * another client a contradiction: both `invalid_request`. The Basic client's own `client_id` in the
 * body (unneeded once it authenticates, §4.1.3, but some libraries always send it) is tolerated. A Basic header that does
 * not decode is `invalid_client`: the body never stands in for a failed Basic.
 */
export function oneAuthenticationMethod(req: FormRequest): EndpointError | undefined {
  const header = req.headers.authorization;
  if (!header || !/^Basic(\s|$)/i.test(header)) return undefined;
  const basic = basicCredentials(header);
  if (!basic)
    return fail(401, 'invalid_client', 'The Authorization header is not HTTP Basic client credentials');
  const { form } = req;
  if (Object.hasOwn(form, 'client_secret')) {
    return fail(
      400,
      'invalid_request',
      'The client authenticated twice (HTTP Basic and client_secret in the body): use one method (RFC 6749 §2.3)',
    );
  }
  if (Object.hasOwn(form, 'client_id') && form.client_id !== basic.id) {
    return fail(
      400,
      'invalid_request',
      'client_id in the body is not the client of the HTTP Basic credentials',
    );
  }
  return undefined;
}

/** A well-formed client_id (`adc_` + 24 base62 characters): only these are looked up. */
export const isClientId = (id: unknown): id is string =>
  typeof id === 'string' && /^adc_[0-9A-Za-z]{24}$/.test(id);

/**
 * The enabled client with this client_id, if it proves itself: a confidential client by its secret
 * (compared in constant time, as hashes), a public client by its id alone.
 */
export async function verifiedClient(
  database: Database,
  id: unknown,
  secret: unknown,
): Promise<ClientHit | undefined> {
  const hit = isClientId(id) ? await findClientById(database.db, id) : undefined;
  if (!hit || hit.disabled_at) return undefined;
  if (hit.type === 'public') return hit;
  if (typeof secret !== 'string' || !hit.secret_hash) return undefined;
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hit.secret_hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? hit : undefined;
}

/**
 * The client calling revocation or introspection: a confidential client by its secret (HTTP Basic or
 * form fields), a public client by its client_id alone (it can only ever touch its own tokens).
 */
export async function authenticateClient(
  database: Database,
  req: FormRequest,
): Promise<{ client: ClientHit } | { error: EndpointError }> {
  const { form } = req;
  const basic = basicCredentials(req.headers.authorization);
  if (req.headers.authorization && !basic) {
    return {
      error: fail(401, 'invalid_client', 'The Authorization header is not HTTP Basic client credentials'),
    };
  }
  const twice = oneAuthenticationMethod(req);
  if (twice) return { error: twice };
  const id = basic?.id ?? form.client_id;
  const secret = basic?.secret ?? form.client_secret;
  if (typeof id !== 'string' || id === '')
    return { error: fail(401, 'invalid_client', 'Client authentication is missing') };
  const hit = await verifiedClient(database, id, secret);
  if (!hit) {
    return { error: fail(401, 'invalid_client', 'Invalid client: unknown, disabled, or a wrong secret') };
  }
  return { client: hit };
}
