/** The PostgreSQL error behind a driver or drizzle error, if any. */
function pgError(err: unknown): { code?: string; constraint?: string } | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return e as { code: string; constraint?: string };
    e = e.cause as typeof e;
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
