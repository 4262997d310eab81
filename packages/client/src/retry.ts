/** When and how long the client waits before sending a call again. */
export interface RetryOptions {
  /** Attempts per call, the first one included (default 4); 1 never retries. */
  maxAttempts?: number;
  /** The ceiling of the first back-off (default 500 ms); it doubles with each retry. */
  baseDelayMs?: number;
  /** The back-off's largest ceiling (default 30 s). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the 429 or 503 is thrown (default 5 minutes). */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const retryPolicy = (options: RetryOptions = {}): RetryPolicy => ({
  maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 4)),
  baseDelayMs: options.baseDelayMs ?? 500,
  maxDelayMs: options.maxDelayMs ?? 30_000,
  maxRetryAfterMs: options.maxRetryAfterMs ?? 5 * 60_000,
});

/** What an attempt came to, as far as retrying goes. */
export type Outcome =
  | { kind: 'answer'; status: number; retryAfterMs: number | undefined; keyInProgress: boolean }
  | { kind: 'no answer'; neverSent: boolean };

/**
 * "Full jitter" exponential back-off: a random wait between 0 and base × 2^(retry−1), capped, so that
 * many clients refused at once do not all come back at the same moment.
 */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before attempt `attempt + 1`, or null to give up. A 429 changed nothing, so any call
 * is sent again; after a 503 or a lost answer only a call that is safe to repeat is: not a POST, or a
 * POST with an Idempotency-Key (the service answers its retry with the first answer). A `Retry-After`
 * is waited for in full, with the jittered back-off on top.
 */
export function retryDelayMs(
  outcome: Outcome,
  attempt: number,
  safe: boolean,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const backoff = backoffMs(attempt, policy, random);
  if (outcome.kind === 'no answer') return safe || outcome.neverSent ? backoff : null;
  const { status, retryAfterMs } = outcome;
  // The first request with this Idempotency-Key is still running: its answer will be ours.
  if (status === 409 && outcome.keyInProgress) return backoff;
  if (status !== 429 && !(status === 503 && safe)) return null;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return null;
  return (retryAfterMs ?? 0) + backoff;
}

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from `now`. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
