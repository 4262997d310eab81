// Type augmentation: pino-http adds req.id and req.log; authentication adds req.ctx.
import type {} from 'pino-http';
import type { RequestContext } from '../kernel/context';

declare global {
  namespace Express {
    interface Request {
      ctx?: RequestContext;
    }
  }
}
