import type { z } from '../kernel/zod';
import type { NewJob } from './jobs.repository';

/**
 * One kind of background work, defined once: its kind, the zod schema of its payload (checked when a
 * job is queued and again when it is claimed), how often it is tried and how long one attempt may take.
 */
export interface JobType<S extends z.ZodType = z.ZodType> {
  readonly kind: string;
  readonly payload: S;
  readonly maxAttempts: number;
  /** Longest run of one attempt; past it the attempt fails (and is retried) and its signal aborts. */
  readonly timeoutMs: number;
  /** Delay before the attempt after failed attempt `attempt` (from 1). */
  retryDelayMs(attempt: number): number;
  /** A job of this type to queue with the change that causes it; a payload off its schema throws. */
  job(input: { subjectId: string | null; payload: z.input<S>; runAt: Date; maxAttempts?: number }): NewJob;
  /** A stored payload read back (e.g. to show a queued job); throws when it is off its schema. */
  read(payload: unknown): z.output<S>;
}

/** Delay before attempt n+1 after attempt n failed: 30 s, 1 min, 2 min, … capped at one hour. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
}

/** Raised when a payload does not match its job type: a programming error, never retried. */
export class JobPayloadError extends Error {
  override name = 'JobPayloadError';
}

export function defineJob<S extends z.ZodType>(spec: {
  kind: string;
  payload: S;
  maxAttempts: number;
  timeoutMs?: number;
  retryDelayMs?: (attempt: number) => number;
}): JobType<S> {
  const read = (payload: unknown): z.output<S> => {
    const checked = spec.payload.safeParse(payload);
    if (!checked.success) {
      const problems = checked.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
      throw new JobPayloadError(
        `payload of a ${spec.kind} job does not match its type: ${problems.join('; ')}`,
      );
    }
    return checked.data;
  };
  return {
    kind: spec.kind,
    payload: spec.payload,
    maxAttempts: spec.maxAttempts,
    timeoutMs: spec.timeoutMs ?? 60_000,
    retryDelayMs: spec.retryDelayMs ?? defaultRetryDelayMs,
    job: ({ subjectId, payload, runAt, maxAttempts }) => ({
      kind: spec.kind,
      subjectId,
      payload: read(payload) as Record<string, unknown>,
      runAt,
      maxAttempts: maxAttempts ?? spec.maxAttempts,
    }),
    read,
  };
}
