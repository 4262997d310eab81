import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClaimedJob } from './job';

/** The job whose attempt is running: what a shared service (the outbound door) may ask of it. */
export type RunningJob = Pick<ClaimedJob, 'id' | 'organisationId' | 'kind' | 'subjectId'>;

const running = new AsyncLocalStorage<RunningJob>();

/** Runs an attempt of `job` (the worker does, for every job it runs). */
export function runningAs<T>(job: RunningJob, fn: () => Promise<T>): Promise<T> {
  return running.run(job, fn);
}

/** The job whose attempt the caller runs within, if any. */
export function runningJob(): RunningJob | undefined {
  return running.getStore();
}
