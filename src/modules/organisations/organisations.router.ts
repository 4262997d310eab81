import type { RateLimits } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import { apiKeyRoutes } from './apikeys.router';
import { rateLimitRoutes } from './limits.router';
import type { AdminDeps } from './organisations.service';
import { userRoutes } from './users.router';

/** The administrators' API of the organisation: rate limits, users, API keys (in this order). */
export function adminRoutes(routes: Routes, deps: AdminDeps & { limits: RateLimits }): void {
  rateLimitRoutes(routes, deps);
  userRoutes(routes, deps);
  apiKeyRoutes(routes, deps);
}
