import { auditRepository } from '../../platform/audit/audit.repository';
import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { RateLimits } from '../../platform/http/rate-limit';
import type { RequestContext } from '../../platform/kernel/context';
import { organisationRepository } from './organisations.repository';
import type { RateLimitSettings, UpdateRateLimits } from './organisations.schemas';

export interface LimitDeps {
  database: Database;
  limits: RateLimits;
}

/** The organisation's own API limit (requests a minute per credential), or null for the default. */
export async function organisationApiLimit(database: Database, ctx: RequestContext): Promise<number | null> {
  const org = await inTenant(database, ctx, (tx) => organisationRepository(tx, ctx).find());
  return org?.apiRateLimit ?? null;
}

function settingsOf(limits: RateLimits, setting: number | null): RateLimitSettings {
  const c = limits.config;
  const of = (r: { limit: number; windowMs: number }) => ({
    limit: r.limit,
    windowSeconds: r.windowMs / 1000,
  });
  return {
    apiPerMinute: setting ?? c.api.limit,
    organisationSetting: setting,
    defaultApiPerMinute: c.api.limit,
    perAddress: { public: of(c.public), signin: of(c.signin), token: of(c.token) },
  };
}

export async function getRateLimits(deps: LimitDeps, ctx: RequestContext): Promise<RateLimitSettings> {
  return settingsOf(deps.limits, await organisationApiLimit(deps.database, ctx));
}

/** Sets the organisation's API limit; this instance applies it at once, others within 30 seconds. */
export async function setRateLimits(
  deps: LimitDeps,
  ctx: RequestContext,
  input: UpdateRateLimits,
): Promise<RateLimitSettings> {
  const setting = await inTenant(deps.database, ctx, async (tx) => {
    const orgs = organisationRepository(tx, ctx);
    await auditRepository(tx, ctx).replaceRowRecords();
    const before = (await orgs.find({ forUpdate: true }))?.apiRateLimit ?? null;
    if (before !== input.apiPerMinute) {
      await orgs.setApiRateLimit(input.apiPerMinute);
      await auditRepository(tx, ctx).record({
        action: 'organisation.updated',
        targetType: 'organisation',
        targetId: ctx.organisationId,
        summary: { apiRateLimit: { before, after: input.apiPerMinute } },
      });
    }
    return input.apiPerMinute;
  });
  deps.limits.forget(ctx.organisationId);
  return settingsOf(deps.limits, setting);
}
