import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { webhookFanOut } from '../../src/modules/webhooks/fan-out.repository';
import {
  DISABLE_AFTER_MS,
  RETRY_SCHEDULE_MS,
  retryDelayMs,
  webhookDeliveryJob,
  webhookDisabledNoticeJob,
} from '../../src/modules/webhooks/webhooks.delivery';
import { defaultRetryDelayMs, defineJob, JobPayloadError } from '../../src/platform/jobs/job-type';
import { z } from '../../src/platform/kernel/zod';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('the retry schedule of background jobs (defaultRetryDelayMs)', () => {
  it('when attempts fail, then the delay doubles from 30 seconds', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(defaultRetryDelayMs)).toEqual([
      30 * SECOND,
      1 * MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      32 * MINUTE,
    ]);
  });

  it('when the doubling would pass an hour, then the delay stays at one hour, however many attempts failed', () => {
    for (const attempt of [8, 9, 20, 100, 5000]) expect(defaultRetryDelayMs(attempt)).toBe(HOUR);
  });

  it('when attempt n failed, then the delay is never shorter than after attempt n-1', () => {
    for (let n = 2; n < 40; n++)
      expect(defaultRetryDelayMs(n)).toBeGreaterThanOrEqual(defaultRetryDelayMs(n - 1));
  });
});

describe('a job type (defineJob)', () => {
  const mailJob = defineJob({
    kind: 'test-mail',
    payload: z.strictObject({ to: z.email(), tries: z.number().int().default(0) }),
    maxAttempts: 5,
  });
  const runAt = new Date('2026-03-02T09:00:00Z');

  it('when a job type names no timeout or schedule, then one attempt may take a minute and retries follow the default schedule', () => {
    expect(mailJob.timeoutMs).toBe(60_000);
    expect(mailJob.retryDelayMs).toBe(defaultRetryDelayMs);
    expect(mailJob.maxAttempts).toBe(5);
  });

  it('when a job is queued, then its payload is checked and parsed, and its attempts are the type’s unless given', () => {
    expect(mailJob.job({ subjectId: null, payload: { to: 'a@example.com' }, runAt })).toEqual({
      kind: 'test-mail',
      subjectId: null,
      payload: { to: 'a@example.com', tries: 0 },
      runAt,
      maxAttempts: 5,
    });
    expect(
      mailJob.job({ subjectId: 's1', payload: { to: 'a@example.com' }, runAt, maxAttempts: 1 }).maxAttempts,
    ).toBe(1);
  });

  it('when a payload is off its schema, then queueing or reading it throws a JobPayloadError naming each field', () => {
    expect(() => mailJob.job({ subjectId: null, payload: { to: 'nope' }, runAt })).toThrow(JobPayloadError);
    expect(() => mailJob.read({ to: 'nope', tries: 'x' })).toThrow(
      /^payload of a test-mail job does not match its type: to: .+; tries: .+$/,
    );
    expect(() => mailJob.read({ to: 'a@example.com', extra: 1 })).toThrow(JobPayloadError);
    expect(() => mailJob.read(null)).toThrow(
      /payload of a test-mail job does not match its type: \(payload\): /,
    );
    expect(mailJob.read({ to: 'a@example.com', tries: 2 })).toEqual({ to: 'a@example.com', tries: 2 });
  });
});

describe('the retry schedule of webhook deliveries (retryDelayMs)', () => {
  const middle = () => 0.5;

  it('when a delivery fails, then the next attempts come after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 18 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => retryDelayMs(a, middle))).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      18 * HOUR,
    ]);
    expect(RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / HOUR).toBeCloseTo(35.58, 2);
  });

  it('when a delay is drawn, then it lies within ±10 % of the schedule, so retries do not come in waves', () => {
    RETRY_SCHEDULE_MS.forEach((base, i) => {
      expect(retryDelayMs(i + 1, () => 0)).toBe(Math.round(base * 0.9));
      expect(retryDelayMs(i + 1, () => 0.999_999)).toBe(Math.round(base * (0.9 + 0.2 * 0.999_999)));
      expect(retryDelayMs(i + 1, () => 0.999_999)).toBeLessThanOrEqual(base * 1.1);
    });
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(3);
      expect(d).toBeGreaterThanOrEqual(0.9 * 30 * MINUTE);
      expect(d).toBeLessThanOrEqual(1.1 * 30 * MINUTE);
    }
  });

  it('when the attempt is past the schedule (or not a real attempt), then the last (or first) delay is used', () => {
    expect(retryDelayMs(8, middle)).toBe(18 * HOUR);
    expect(retryDelayMs(50, middle)).toBe(18 * HOUR);
    expect(retryDelayMs(0, middle)).toBe(5 * SECOND);
  });

  it('when the delivery job is defined, then it has one attempt more than the schedule has delays, and its retries follow the schedule', () => {
    expect(webhookDeliveryJob.kind).toBe('webhook-delivery');
    expect(webhookDeliveryJob.maxAttempts).toBe(8);
    expect(webhookDeliveryJob.timeoutMs).toBe(45_000);
    for (let attempt = 1; attempt <= 7; attempt++) {
      const base = RETRY_SCHEDULE_MS[attempt - 1]!;
      const d = webhookDeliveryJob.retryDelayMs(attempt);
      expect(d).toBeGreaterThanOrEqual(Math.round(base * 0.9));
      expect(d).toBeLessThanOrEqual(Math.round(base * 1.1));
    }
    expect(webhookDeliveryJob.read({})).toEqual({});
    expect(() => webhookDeliveryJob.read({ extra: 1 })).toThrow(JobPayloadError);
    expect(webhookDisabledNoticeJob.read({ webhookId: 'w' })).toEqual({ webhookId: 'w' });
    expect(webhookDisabledNoticeJob.retryDelayMs).toBe(defaultRetryDelayMs);
  });

  it('when an event fans out to a webhook, then the delivery job it queues has the kind and attempts the job type has', () => {
    // The statement the events writer runs after its insert (fan-out.repository.ts; migration 0044
    // dropped the trigger that queued these jobs with its own copy of the kind and attempts).
    const query = new PgDialect().sqlToQuery(sql.join(webhookFanOut(sql.raw('recorded')), sql`, `));
    const jobs = query.sql.slice(query.sql.indexOf('INSERT INTO jobs'));
    const params = [...jobs.matchAll(/\$(\d+)/g)].map((m) => query.params[Number(m[1]) - 1]);
    expect(params).toEqual([webhookDeliveryJob.kind, JSON.stringify({}), webhookDeliveryJob.maxAttempts]);
    expect(jobs).not.toContain('webhook-delivery');
  });

  it('when an endpoint is disabled for failing, then that takes longer than one delivery’s whole schedule', () => {
    expect(DISABLE_AFTER_MS).toBe(3 * 24 * HOUR);
    expect(RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) * 1.1).toBeLessThan(DISABLE_AFTER_MS);
  });
});
