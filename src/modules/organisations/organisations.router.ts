import type { RateLimits } from '../../platform/http/rate-limit';
import type { Routes } from '../../platform/http/routes';
import { apiKeyRoutes } from './apikeys.router';
import { brandRoutes } from './brand.router';
import { rateLimitRoutes } from './limits.router';
import type { AdminDeps } from './organisations.service';
import { sealRoutes } from './seal.router';
import type { SealDeps } from './seal.service';
import { userRoutes } from './users.router';

/** The administrators' API of the organisation: rate limits, brand, seal, users, API keys (in this order). */
export function adminRoutes(routes: Routes, deps: AdminDeps & SealDeps & { limits: RateLimits }): void {
  rateLimitRoutes(routes, deps);
  brandRoutes(routes, deps);
  sealRoutes(routes, deps);
  userRoutes(routes, deps);
  apiKeyRoutes(routes, deps);
}
