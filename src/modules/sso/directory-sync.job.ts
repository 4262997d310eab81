import { defineJob } from '../../platform/jobs/job-type';
import { z } from '../../platform/kernel/zod';

/** Reads a Microsoft-type provider's directory and applies it to the organisation's users. */
export const directorySyncJob = defineJob({
  kind: 'sso.directory-sync',
  payload: z.strictObject({ providerId: z.string() }),
  maxAttempts: 3,
  timeoutMs: 5 * 60_000,
});

/** The job that runs a provider's synchronisation at `at` (queued with the change that asks for it). */
export const syncJobNow = (providerId: string, at: Date) =>
  directorySyncJob.job({ subjectId: providerId, payload: { providerId }, runAt: at });
