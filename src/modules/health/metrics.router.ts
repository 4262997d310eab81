import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type Request, type Response, Router } from 'express';
import { AuthErrorBody, ErrorBody, type OpenAPIRegistry } from '../../platform/http/openapi';
import { NotFound, Unauthenticated } from '../../platform/kernel/errors';
import type { Metrics } from '../../platform/ops/metrics';

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Answers a scrape: the Prometheus text of this process's metrics. */
export async function serveMetrics(metrics: Metrics, res: ServerResponse): Promise<void> {
  const { contentType, body } = await metrics.scrape();
  res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body);
}

/**
 * GET /metrics on the API's port, for Prometheus: with `Authorization: Bearer <METRICS_TOKEN>`; 404 when
 * no token is configured (then scrape METRICS_PORT, or nothing). See docs/operations.md#metrics.
 */
export function metricsRoutes(registry: OpenAPIRegistry, metrics: Metrics, token: string | null): Router {
  registry.registerComponent('securitySchemes', 'MetricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN of the service’s configuration (operators’ Prometheus only).',
  });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of this instance (operators)',
    description:
      'The Prometheus text format (version 0.0.4): requests by route and status, their latency, database pool and transaction time, the job queue and its oldest due job, job and webhook outcomes, rate-limit refusals, and the process’s own figures. Enabled by METRICS_TOKEN (404 without it); the same is served without a token on METRICS_PORT when set.',
    tags: ['Health'],
    security: [{ MetricsToken: [] }],
    responses: {
      200: {
        description: 'The metrics',
        content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
      },
      401: {
        description: 'No or a wrong METRICS_TOKEN',
        content: { 'application/json': { schema: AuthErrorBody } },
      },
      404: {
        description: 'No METRICS_TOKEN is configured',
        content: { 'application/json': { schema: ErrorBody } },
      },
    },
  });
  const router = Router();
  router.get('/metrics', async (req: Request, res: Response) => {
    res.locals.route = '/metrics';
    if (!token) throw new NotFound('Metrics are not served here: set METRICS_TOKEN, or scrape METRICS_PORT');
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !sameText(given, token)) throw new Unauthenticated('Missing or wrong metrics token');
    await serveMetrics(metrics, res);
  });
  return router;
}
