interface ErrorLike {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** An error and the causes behind it (drizzle wraps driver errors), outermost first, at most five. */
function* causes(err: unknown): Generator<ErrorLike> {
  let e = err as ErrorLike | undefined;
  for (let i = 0; e && i < 5; i++, e = e.cause as ErrorLike | undefined) yield e;
}

/** The PostgreSQL error behind a driver or drizzle error, if any. */
function pgError(err: unknown): { code: string; constraint?: unknown } | undefined {
  for (const e of causes(err)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e as { code: string };
  }
  return undefined;
}

export function pgErrorCode(err: unknown): string | undefined {
  return pgError(err)?.code;
}

/** True for a unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/**
 * True for a foreign-key violation (23503) or an ON DELETE RESTRICT refusal (23001), optionally of one
 * named constraint: a row others still point at.
 */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return (
    (e?.code === '23503' || e?.code === '23001') && (constraint === undefined || e.constraint === constraint)
  );
}

/** Raised by the database layer itself when it gives up waiting (pool full, connect or query timeout). */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

// Also a deadlock or serialization failure (40P01, 40001): the transaction was rolled back and may
// simply be retried.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03', '40P01', '40001']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'the database system is',
];

/**
 * True when an error means the database could not be reached or gave up in time (lost connection,
 * server shutting down, too many connections, a timeout), rather than refusing this statement: the
 * request is answered 503 and may be retried.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causes(err)) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e;
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))
    )
      return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/** True when the database layer refused to queue one more caller (as opposed to a lost or hung server). */
export function isDatabaseBusy(err: unknown): boolean {
  for (const e of causes(err)) if (e instanceof DatabaseUnavailableError) return true;
  return false;
}
