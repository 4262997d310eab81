import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { JobSignal } from '../jobs/job';
import { type Logger, serializeError, withLogFields } from '../ops/logger';
import type { Metrics } from '../ops/metrics';
import { redactUrl, withRedaction } from '../ops/redaction';

/** Every answer counted and timed by route (its documented path, named by Routes), method and status. */
export function countRequests(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route =
        (res.locals.route as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : 'other');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc({ ...labels, mode: req.ctx?.mode ?? 'none' });
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.statusCode === 429) metrics.rateLimitRefusals.inc({ route });
    });
    next();
  };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const withActor = (req: Request, val: object) => ({
  ...val,
  organisationId: req.ctx?.organisationId,
  userId: req.ctx?.userId,
});

/**
 * One log line per answer, under the request's id (the client's X-Request-Id when it is a plain one,
 * else a new one; sent back either way), with who asked.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    // req.log carries only the request id; the full request is serialised once, on the response line.
    quietReqLogger: true,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customSuccessObject: (req, _res, val) => withActor(req as Request, val),
    customErrorObject: (req, _res, _err, val) => withActor(req as Request, val),
    // Our serializers read the raw objects: no full copy of every request is built just to be trimmed.
    wrapSerializers: false,
    serializers: {
      req: (req: Request) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.originalUrl),
        remoteAddress: req.socket?.remoteAddress,
      }),
      res: (res: Response) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  }) as RequestHandler;
}

/**
 * Every line logged while serving the request, by any logger, carries its id; the credentials it
 * carries (declared by its route) are taken out of all of them (redaction.ts).
 */
export const logUnderRequest: RequestHandler = (req, _res, next) =>
  withLogFields({ requestId: req.id }, () => withRedaction(next));

/**
 * A request that changed something may have queued jobs (messages, webhook deliveries for the events it
 * wrote): once it has answered, this process's worker looks for them at once instead of at its next
 * poll. Opening an action's link (a GET) writes an event too.
 */
export function wakeJobsAfterWrites(jobs: JobSignal): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      if (res.statusCode < 400 && (req.method !== 'GET' || req.path.startsWith('/action/'))) jobs.wake();
    });
    next();
  };
}
