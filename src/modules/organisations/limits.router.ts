import type { Routes } from '../../platform/http/routes';
import { getRateLimits, type LimitDeps, setRateLimits } from './limits.service';
import { RateLimitSettings, UpdateRateLimits } from './organisations.schemas';

/** The organisation's API rate limit (administrators): read it, set it. */
export function rateLimitRoutes(routes: Routes, deps: LimitDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/admin/rate-limits',
      summary: 'The organisation’s rate limits',
      description: 'See docs/api.md#rate-limits for every limit and the back-off clients should use.',
      tags: ['Admin: rate limits'],
      permission: 'admin',
      response: RateLimitSettings,
    },
    ({ ctx }) => getRateLimits(deps, ctx),
  );
  routes.add(
    {
      method: 'patch',
      path: '/admin/rate-limits',
      summary: 'Set the organisation’s API rate limit',
      description:
        'Requests a minute allowed to each API key, OAuth client and staff user of the organisation (null: the service default). Applies at once on the instance that answers, within 30 seconds on the others. Audited.',
      tags: ['Admin: rate limits'],
      permission: 'admin',
      body: UpdateRateLimits,
      response: RateLimitSettings,
    },
    ({ ctx, body }) => setRateLimits(deps, ctx, body),
  );
}
