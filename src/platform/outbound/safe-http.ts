import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import {
  addressProblem,
  addressRefusal,
  holdsLoopback,
  type PrivateAccess,
  parseNetworks,
} from './address-filter';

/**
 * The one HTTP client for outbound calls. Requests to addresses a client or an administrator chose
 * (webhooks, sign-in providers) go under a policy that keeps them off inner addresses; the SMS provider,
 * which the operator configures, under one that allows them (`operatorPolicy`).
 *
 * Outbound requests to addresses a client or an administrator chose (webhooks, sign-in providers):
 * only http(s), and only to public addresses unless the configuration opens inner ones; link-local,
 * cloud metadata and unspecified addresses never (address-filter.ts has the rule). The check runs when
 * the address is registered and again at every connection, on every address the host name resolves
 * to (our own `lookup` on node:http/https: the global fetch would ignore it), so a name that later
 * resolves to an inner address is refused too, before any connection is made.
 */
export interface SafeHttpPolicy {
  allowHttp: boolean;
  /** Plain http only to this machine (a sign-in provider run on it): `localhost` or a loopback address. */
  httpOnlyToLoopback?: boolean;
  /** Inner addresses that may be reached: none, all (development), or those in listed networks. */
  allowPrivate: PrivateAccess;
  /** DNS resolution (tests give their own names); dns.lookup by default. */
  lookup?: LookupFunction;
  /** Keep connections open between requests (the delivery worker); off for one-off requests. */
  keepAlive?: boolean;
}

export interface SafeResponse {
  status: number;
  /** The start of the body, at most maxBodyBytes. */
  body: string;
  /** Where a 3xx pointed (never followed). */
  location: string | null;
  durationMs: number;
}

export interface BinaryResponse extends Omit<SafeResponse, 'body'> {
  bytes: Buffer;
  contentType: string | null;
}

/** Kept as text: NUL (which PostgreSQL text cannot hold) becomes U+FFFD, like undecodable bytes. */
function asText({ bytes, contentType: _, ...rest }: BinaryResponse): SafeResponse {
  return { ...rest, body: bytes.toString('utf8').replaceAll('\u0000', '\uFFFD') };
}

export interface SafeRequest {
  headers: Record<string, string>;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

export class SafeHttpError extends Error {
  override name = 'SafeHttpError';
}

/** The peer answered and refused (a status it gave): what was sent was certainly not taken. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** Whether the URL's host is this machine: `localhost` or a loopback address (mapped IPv4 included). */
function onThisMachine(u: URL): boolean {
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (!net.isIP(host)) return false;
  let address = ipaddr.parse(host);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'loopback';
}

/** The policy for a peer the operator configured (the SMS provider): any address, http or https. */
export const operatorPolicy: SafeHttpPolicy = { allowHttp: true, allowPrivate: true };

/**
 * The policy for sign-in providers and directories on the listed networks (SSO_PRIVATE_NETWORKS):
 * plain http only where a listed network holds the loopback address (a provider on this machine).
 */
export function listedNetworksPolicy(networks: readonly string[], lookup?: LookupFunction): SafeHttpPolicy {
  const parsed = parseNetworks(networks.join(','));
  const loopback = holdsLoopback(parsed);
  return { allowHttp: loopback, httpOnlyToLoopback: loopback, allowPrivate: parsed, lookup };
}

/**
 * Checks a destination URL before it is stored: scheme (written as the OpenAPI pattern says: `https://`,
 * or `http://` where allowed), no credentials, and every address its host resolves to. Answers the
 * problem in words, or null.
 */
export async function destinationProblem(
  url: string,
  policy: SafeHttpPolicy,
  /** `accept`: a name that does not resolve from here (yet) passes; it is checked at every connection. */
  unresolved: 'refuse' | 'accept' = 'refuse',
): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && policy.allowHttp))
    return policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (u.protocol === 'http:' && policy.httpOnlyToLoopback && !onThisMachine(u))
    return 'must be an https URL (http only on the loopback address)';
  if (!url.startsWith(`${u.protocol}//`)) return `must start with ${u.protocol}//`;
  if (u.username || u.password) return 'must not contain a user name or password';
  if (u.hash) return 'must not contain a #fragment';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const problem = addressProblem(host, policy.allowPrivate);
    return problem ? `is refused: ${problem}` : null;
  }
  let addresses: string[];
  try {
    addresses = await lookupAll(host, policy.lookup ?? dns.lookup);
  } catch (err) {
    if (unresolved === 'accept') return null;
    return `cannot be reached: ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  const refusal = resolvedRefusal(host, addresses, policy.allowPrivate);
  return refusal ? `is refused: ${refusal}` : null;
}

/** Why a host name whose addresses are these may not be reached (the first refused one), or null. */
function resolvedRefusal(
  host: string,
  addresses: readonly string[],
  allowPrivate: PrivateAccess,
): string | null {
  for (const address of addresses) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal) return `${host} resolves to ${address}, ${refusal}`;
  }
  return null;
}

type LookupAll = (
  host: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

function lookupAll(host: string, lookup: LookupFunction): Promise<string[]> {
  return new Promise((resolve, reject) => {
    (lookup as unknown as LookupAll)(host, { all: true }, (err, addresses) => {
      if (err) reject(err);
      else if (addresses.length === 0) reject(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/**
 * `lookup` that answers only when every address the name resolves to may be reached: the connection
 * check, made before connecting (a refused name never sees a SYN), with the registration's rule.
 */
function checkedLookup(lookup: LookupFunction, allowPrivate: PrivateAccess): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    (lookup as unknown as LookupAll)(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }));
      const refusal = resolvedRefusal(
        hostname,
        addresses.map((a) => a.address),
        allowPrivate,
      );
      if (refusal) return callback(new SafeHttpError(`refused: ${refusal}`));
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  }) as unknown as LookupFunction;
}

/**
 * Outbound requests under a policy: keep-alive agents (when asked), a host that is an address checked
 * before the request, a host name checked on every address it resolves to before connecting.
 */
export class SafeHttpClient {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: LookupFunction;

  constructor(private readonly policy: SafeHttpPolicy) {
    const options = { keepAlive: policy.keepAlive !== false, maxSockets: 50, maxFreeSockets: 10 };
    this.agents = { http: new http.Agent(options), https: new https.Agent(options) };
    this.lookup = checkedLookup(policy.lookup ?? dns.lookup, policy.allowPrivate);
  }

  /**
   * POSTs `body`; never follows a redirect; reads at most `maxBodyBytes` of the answer; gives up after
   * `timeoutMs` in all (connection, headers and body) or when `signal` aborts.
   */
  async post(url: string, request: SafeRequest & { body: string }): Promise<SafeResponse> {
    return asText(await this.send('POST', url, request));
  }

  /** GETs `url`, with the same limits as `post`. */
  async get(url: string, request: SafeRequest): Promise<SafeResponse> {
    return asText(await this.send('GET', url, request));
  }

  /**
   * A request whose answer is binary (a timestamp, a revocation list): the body as bytes, with its
   * content type. Same limits as `post`; `headers` should name the content type of a `body`.
   */
  async exchange(
    method: 'GET' | 'POST',
    url: string,
    request: SafeRequest & { body?: Buffer },
  ): Promise<BinaryResponse> {
    return this.send(method, url, request);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    request: SafeRequest & { body?: string | Buffer },
  ): Promise<BinaryResponse> {
    const u = new URL(url);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && this.policy.allowHttp))
      throw new SafeHttpError(`${u.protocol} URLs are not allowed`);
    if (u.protocol === 'http:' && this.policy.httpOnlyToLoopback && !onThisMachine(u))
      throw new SafeHttpError('plain http is allowed only to the loopback address');
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const problem = net.isIP(host) ? addressProblem(host, this.policy.allowPrivate) : null;
    if (problem) throw new SafeHttpError(`refused: ${problem}`);
    const agents = this.agents;
    const started = performance.now();
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const send = u.protocol === 'https:' ? https.request : http.request;
    return new Promise<BinaryResponse>((resolve, reject) => {
      const fail = (err: Error) => {
        const reason = timeout.aborted
          ? `no answer within ${request.timeoutMs / 1000} s`
          : signal.aborted
            ? 'aborted'
            : err.message;
        reject(new SafeHttpError(reason));
      };
      const req = send(
        u,
        {
          method,
          agent: u.protocol === 'https:' ? agents.https : agents.http,
          headers: {
            ...(request.body !== undefined
              ? {
                  'content-type': 'application/json',
                  'content-length': String(Buffer.byteLength(request.body)),
                }
              : {}),
            'user-agent': 'ActionDesk-Webhooks/1',
            ...request.headers,
          },
          signal,
          lookup: this.lookup,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            resolve({
              status: res.statusCode ?? 0,
              bytes: Buffer.concat(chunks).subarray(0, request.maxBodyBytes),
              contentType: res.headers['content-type'] ?? null,
              location:
                typeof res.headers.location === 'string'
                  ? res.headers.location.replaceAll('\u0000', '')
                  : null,
              durationMs: Math.round(performance.now() - started),
            });
          };
          res.on('data', (chunk: Buffer) => {
            if (size >= request.maxBodyBytes) return;
            chunks.push(chunk);
            size += chunk.length;
            // Enough read: the rest is not wanted, and the connection is not reused.
            if (size >= request.maxBodyBytes) {
              res.destroy();
              finish();
            }
          });
          res.on('end', finish);
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      if (request.body !== undefined) req.end(request.body);
      else req.end();
    });
  }

  /** Closes idle keep-alive connections (at shutdown). */
  async close(): Promise<void> {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
