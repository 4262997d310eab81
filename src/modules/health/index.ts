// The health module's public entry.
export { healthRoutes } from './health.router';
export { metricsRoutes, serveMetrics } from './metrics.router';
