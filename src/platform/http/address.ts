import type { Request } from 'express';

/**
 * The client's address as Express sees it behind the configured proxies (TRUST_PROXY), or the socket's
 * peer; null when neither is known (a closed socket).
 */
export const clientAddress = (req: Request): string | null => req.ip ?? req.socket.remoteAddress ?? null;
