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
  return server;
}
