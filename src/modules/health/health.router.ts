import type { Database } from '../../platform/db/database';
import type { Routes } from '../../platform/http/routes';
import type { Clock } from '../../platform/kernel/clock';
import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import type { Readiness } from '../../platform/ops/readiness';

export const Health = z
  .object({
    status: z.enum(['ok', 'error', 'draining']).meta({
      description:
        '`ok`; `error` when the database does not answer; `draining` when the process is stopping (it still serves what reaches it, but a load balancer should send no more)',
    }),
    timestamp,
    uptime: z.number().int().meta({ description: 'Seconds since the process started' }),
    database: z.object({ postgresql: z.enum(['connected', 'disconnected']) }),
  })
  .meta({ id: 'Health' });

const PING_TIMEOUT_MS = 2000;

async function reachable(database: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([database.ping(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health: public, for load balancers; says whether the database answers and nothing more. */
export function healthRoutes(
  routes: Routes,
  deps: { database: Database; clock: Clock; startedAt: number; readiness: Readiness },
) {
  routes.public(
    {
      method: 'get',
      path: '/health',
      rateLimit: false,
      summary: 'Liveness and database connection (public)',
      tags: ['Health'],
      response: Health,
      alsoResponds: [
        {
          status: 503,
          description: 'The database does not answer (`error`), or the process is stopping (`draining`)',
          schema: Health,
        },
      ],
    },
    async ({ res }) => {
      const up = await reachable(deps.database);
      const draining = deps.readiness.draining;
      res.status(up && !draining ? 200 : 503).setHeader('Cache-Control', 'no-store');
      const body = {
        status: draining ? ('draining' as const) : up ? ('ok' as const) : ('error' as const),
        timestamp: deps.clock.now().toISOString(),
        uptime: Math.floor((Date.now() - deps.startedAt) / 1000),
        database: { postgresql: up ? ('connected' as const) : ('disconnected' as const) },
      };
      res.json(body);
      return body;
    },
  );
}
