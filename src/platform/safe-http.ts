import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outbound requests to addresses a client chose (webhooks): only http(s), and never to loopback,
 * private, link-local, multicast, reserved or cloud-metadata addresses unless allowed by configuration.
 * The check runs when the address is registered and again at every connection, after DNS resolution
 * (request-filtering-agent on node:http/https agents: the global fetch would ignore them), so a name
 * that later resolves to an inner address is refused too.
 */
export interface SafeHttpPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
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

export interface SafeRequest {
  headers: Record<string, string>;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

export class SafeHttpError extends Error {
  override name = 'SafeHttpError';
}

/** Why an address may not be used, in words, or null when it may. */
export function addressProblem(address: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  const words: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private address',
    linkLocal: 'a link-local address (cloud metadata lives there)',
    multicast: 'a multicast address',
    unspecified: 'an unspecified address',
    uniqueLocal: 'a private (unique local) address',
    carrierGradeNat: 'a shared (carrier-grade NAT) address',
    broadcast: 'a broadcast address',
    reserved: 'a reserved address',
  };
  return `${address} is ${words[range] ?? `not a public address (${range})`}`;
}

/**
 * Checks a destination URL before it is stored: scheme, no credentials, and every address its host
 * resolves to. Answers the problem in words, or null.
 */
export async function destinationProblem(url: string, policy: SafeHttpPolicy): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && policy.allowHttp))
    return policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (u.username || u.password) return 'must not contain a user name or password';
  if (u.hash) return 'must not contain a #fragment';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const problem = addressProblem(host, policy.allowPrivate);
    return problem ? `is refused: ${problem}` : null;
  }
  if (policy.allowPrivate) return null;
  let addresses: string[];
  try {
    addresses = await lookupAll(host, policy.lookup);
  } catch (err) {
    return `cannot be reached: ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  for (const a of addresses) {
    const problem = addressProblem(a, false);
    if (problem) return `is refused: ${host} resolves to ${problem}`;
  }
  return null;
}

function lookupAll(host: string, lookup: LookupFunction | undefined): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const fn = (lookup ?? dns.lookup) as unknown as (
      h: string,
      o: { all: true },
      cb: (err: NodeJS.ErrnoException | null, addresses: { address: string }[]) => void,
    ) => void;
    fn(host, { all: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    );
  });
}

type FilteringModule = typeof import('request-filtering-agent');
let filtering: Promise<FilteringModule> | undefined;
// request-filtering-agent is an ES module: loaded once, on first use.
const loadFiltering = () => {
  filtering ??= import('request-filtering-agent');
  return filtering;
};

/** Keep-alive agents that refuse (or, when allowed, accept) inner addresses at connect time. */
export class SafeHttpClient {
  private agents: Promise<{ http: http.Agent; https: https.Agent }> | undefined;

  constructor(private readonly policy: SafeHttpPolicy) {}

  private getAgents() {
    this.agents ??= loadFiltering().then((m) => {
      const options = {
        keepAlive: this.policy.keepAlive !== false,
        maxSockets: 50,
        maxFreeSockets: 10,
        allowPrivateIPAddress: this.policy.allowPrivate,
        allowMetaIPAddress: false,
      };
      return {
        http: new m.RequestFilteringHttpAgent(options),
        https: new m.RequestFilteringHttpsAgent(options),
      };
    });
    return this.agents;
  }

  /**
   * POSTs `body`; never follows a redirect; reads at most `maxBodyBytes` of the answer; gives up after
   * `timeoutMs` in all (connection, headers and body) or when `signal` aborts.
   */
  async post(url: string, request: SafeRequest & { body: string }): Promise<SafeResponse> {
    return this.send('POST', url, request);
  }

  /** GETs `url`, with the same limits as `post`. */
  async get(url: string, request: SafeRequest): Promise<SafeResponse> {
    return this.send('GET', url, request);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    request: SafeRequest & { body?: string },
  ): Promise<SafeResponse> {
    const u = new URL(url);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && this.policy.allowHttp))
      throw new SafeHttpError(`${u.protocol} URLs are not allowed`);
    const agents = await this.getAgents();
    const started = performance.now();
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const send = u.protocol === 'https:' ? https.request : http.request;
    return new Promise<SafeResponse>((resolve, reject) => {
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
          ...(this.policy.lookup ? { lookup: this.policy.lookup } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            resolve({
              status: res.statusCode ?? 0,
              // Kept as text: NUL (which PostgreSQL text cannot hold) becomes U+FFFD, like undecodable bytes.
              body: Buffer.concat(chunks)
                .subarray(0, request.maxBodyBytes)
                .toString('utf8')
                .replaceAll('\u0000', '\uFFFD'),
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
    if (!this.agents) return;
    const a = await this.agents;
    a.http.destroy();
    a.https.destroy();
  }
}
