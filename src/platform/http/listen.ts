import type { RequestListener } from 'node:http';
import http from 'node:http';

export interface RequestTimeouts {
  /** Time for a client to send its request headers. */
  headersMs: number;
  /** Time for a client to send its whole request, body included. */
  requestMs: number;
}

/**
 * The HTTP server every entry point uses: a client that sends its headers or body slowly (on purpose
 * or not) is cut off (408) after a bound, so slow clients cannot hold connections and memory for minutes.
 * Node checks the bounds every `connectionsCheckingInterval`, so that interval is kept short.
 */
export function createHttpServer(app: RequestListener, timeouts: RequestTimeouts): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    app,
  );
  // Longer than a load balancer's idle timeout, so the balancer closes idle connections first.
  server.keepAliveTimeout = 65_000;
  // The answers not yet sent, for drainHttpServer; first among the request listeners.
  const open = new Set<http.ServerResponse>();
  inProgress.set(server, open);
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (draining.has(server)) res.shouldKeepAlive = false;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return server;
}

const inProgress = new WeakMap<http.Server, Set<http.ServerResponse>>();
const draining = new WeakSet<http.Server>();

/**
 * From now on every answer closes its connection (`Connection: close`), so keep-alive clients come back
 * on a new connection, which a load balancer that took this process out sends elsewhere. The server goes
 * on accepting and serving (the first step of a stop; drainHttpServer follows).
 */
export function closeConnectionsAfterAnswers(server: http.Server): void {
  draining.add(server);
  for (const res of inProgress.get(server) ?? []) if (!res.headersSent) res.shouldKeepAlive = false;
}

/**
 * Stops `server` gracefully: no new connections; requests in progress finish, and each answer closes
 * its connection (`Connection: close`), so a client or load balancer takes its next request elsewhere.
 * Connections still open after `graceMs` are cut. Resolves once every connection has closed.
 */
export function drainHttpServer(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    // Answers in progress end their connection (Connection: close), unless they have begun already.
    closeConnectionsAfterAnswers(server);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
