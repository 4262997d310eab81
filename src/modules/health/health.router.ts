import type { Clock } from '../../platform/clock';
import type { Database } from '../../platform/db/database';
import type { Routes } from '../../platform/http/routes';
import { timestamp } from '../../platform/schemas';
import { z } from '../../platform/zod';

export const Health = z
  .object({
    status: z.enum(['ok', 'error']),
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
export function healthRoutes(routes: Routes, deps: { database: Database; clock: Clock; startedAt: number }) {
  routes.public(
    {
      method: 'get',
      path: '/health',
      rateLimit: false,
      summary: 'Liveness and database connection (public)',
      tags: ['Health'],
      response: Health,
      alsoResponds: [{ status: 503, description: 'The database does not answer', schema: Health }],
    },
    async ({ res }) => {
      const up = await reachable(deps.database);
      res.status(up ? 200 : 503).setHeader('Cache-Control', 'no-store');
      const body = {
        status: up ? ('ok' as const) : ('error' as const),
        timestamp: deps.clock.now().toISOString(),
        uptime: Math.floor((Date.now() - deps.startedAt) / 1000),
        database: { postgresql: up ? ('connected' as const) : ('disconnected' as const) },
      };
      res.json(body);
      return body;
    },
  );
}
