import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { PermanentJobError } from '../src/platform/jobs/job';
import { defineJob, JobPayloadError } from '../src/platform/jobs/job-type';
import { claimDueJobs, jobRepository, type NewJob } from '../src/platform/jobs/jobs.repository';
import { JobWorker } from '../src/platform/jobs/worker';
import { systemContext } from '../src/platform/kernel/context';
import { z } from '../src/platform/kernel/zod';
import { createLogger } from '../src/platform/ops/logger';
import { createOrg, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';
import { until } from './support/until';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
});
afterAll(() => h.close());

const greet = defineJob({
  kind: 'test-greet',
  payload: z.strictObject({ name: z.string().min(1), times: z.number().int().min(1).max(3) }),
  maxAttempts: 3,
  timeoutMs: 5_000,
});

const ctx = () => systemContext(org.organisationId, h.clock.now());
const enqueue = (jobs: NewJob[]) =>
  inTenant(h.database, ctx(), (tx) => jobRepository(tx, ctx()).enqueue(jobs, h.clock.now()));
const jobRows = () =>
  inTenant(h.database, ctx(), (tx) =>
    queryRows<{ id: string; kind: string; status: string; attempts: number; last_error: string | null }>(
      tx,
      sql`SELECT id, kind, status, attempts, last_error FROM jobs ORDER BY id`,
    ),
  );
const clearJobs = () => inTenant(h.database, ctx(), (tx) => tx.execute(sql`DELETE FROM jobs`));
const workerWith = (options: { batchSize?: number; concurrency?: number } = {}) =>
  new JobWorker(h.database, h.clock, createLogger('silent'), { pollMs: 60_000, ...options });

beforeEach(() => clearJobs());

describe('typed jobs', () => {
  it('when a job is queued with a payload off its type, then it is refused before anything is stored', async () => {
    expect(() =>
      greet.job({ subjectId: null, payload: { name: '', times: 9 } as never, runAt: h.clock.now() }),
    ).toThrow(JobPayloadError);
    expect(() =>
      greet.job({
        subjectId: null,
        payload: { name: 'An', times: 1, extra: true } as never,
        runAt: h.clock.now(),
      }),
    ).toThrow(/payload of a test-greet job does not match its type/);
    expect(await jobRows()).toEqual([]);
  });

  it('when a stored payload does not match its type at claim, then the job fails for good and its handler never runs', async () => {
    await enqueue([
      {
        kind: greet.kind,
        subjectId: null,
        payload: { name: 'An', times: 'twice' },
        runAt: h.clock.now(),
        maxAttempts: 3,
      },
    ]);
    const ran: unknown[] = [];
    const worker = workerWith();
    worker.register(greet, async (job) => {
      ran.push(job.payload);
      return undefined;
    });
    expect(await worker.drain()).toBe(1);
    expect(ran).toEqual([]);
    expect(await jobRows()).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        last_error: expect.stringMatching(
          /test-greet job does not match its type: times: must be a number, not a string/,
        ),
      }),
    ]);
  });

  it('when a handler runs, then it gets the payload as its type says', async () => {
    await enqueue([greet.job({ subjectId: null, payload: { name: 'An', times: 2 }, runAt: h.clock.now() })]);
    const seen: { name: string; times: number }[] = [];
    const worker = workerWith();
    worker.register(greet, async (job) => {
      seen.push(job.payload);
      return undefined;
    });
    await worker.drain();
    expect(seen).toEqual([{ name: 'An', times: 2 }]);
    expect((await jobRows()).map((j) => j.status)).toEqual(['done']);
  });

  it('when an attempt passes its timeout, then it fails with a timeout, its signal aborts, and it is retried later', async () => {
    const quick = defineJob({
      kind: 'test-hang',
      payload: z.strictObject({}),
      maxAttempts: 3,
      timeoutMs: 50,
    });
    await enqueue([quick.job({ subjectId: null, payload: {}, runAt: h.clock.now() })]);
    let aborted = false;
    const worker = workerWith();
    worker.register(quick, (_job, signal) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return new Promise(() => undefined); // never settles
    });
    expect(await worker.drain()).toBe(1);
    expect(aborted).toBe(true);
    expect(await jobRows()).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        last_error: 'the attempt took longer than 50 ms',
      }),
    ]);
  });

  it('when one job is slow, then the next ones are claimed and recorded as done while it still runs', async () => {
    const slow = defineJob({
      kind: 'test-slow',
      payload: z.strictObject({}),
      maxAttempts: 1,
      timeoutMs: 10_000,
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await enqueue([slow.job({ subjectId: null, payload: {}, runAt: h.clock.now() })]);
    await enqueue(
      ['a', 'b', 'c'].map((name) =>
        greet.job({ subjectId: null, payload: { name, times: 1 }, runAt: h.clock.now() }),
      ),
    );
    // One job per claim and two at a time: the slow job holds one slot, the other slot serves the rest.
    const worker = workerWith({ batchSize: 1, concurrency: 2 });
    worker.register(slow, async () => {
      await gate;
      return undefined;
    });
    worker.register(greet, async () => undefined);
    worker.start();
    try {
      await until(
        async () =>
          (await jobRows()).filter((j) => j.kind === 'test-greet' && j.status === 'done').length === 3,
      );
      expect((await jobRows()).find((j) => j.kind === 'test-slow')?.status).toBe('running');
    } finally {
      release();
      await worker.stop();
    }
    expect((await jobRows()).map((j) => j.status)).toEqual(['done', 'done', 'done', 'done']);
  });
});

describe('claims lost with the database', () => {
  it('when a claim committed but its answer never reached the worker, then reconcile hands the job back, due at once and its attempt not counted, and the worker then runs it', async () => {
    const worker = workerWith();
    const ran: string[] = [];
    worker.register(greet, async (job) => {
      ran.push(job.payload.name);
      return undefined;
    });
    await enqueue([
      greet.job({ subjectId: null, payload: { name: 'Lost', times: 1 }, runAt: h.clock.now() }),
    ]);
    // The claim as the worker makes it, whose rows the worker never saw.
    const lost = await claimDueJobs(h.database.db, h.clock.now(), 10, 120, worker.name);
    expect(lost).toHaveLength(1);
    expect(await jobRows()).toMatchObject([{ status: 'running', attempts: 1 }]);
    expect(await worker.reconcile()).toEqual([lost[0]!.id]);
    expect(await jobRows()).toMatchObject([{ status: 'pending', attempts: 0 }]);
    expect(await worker.drain()).toBe(1);
    expect(ran).toEqual(['Lost']);
    expect(await jobRows()).toMatchObject([{ status: 'done', attempts: 1 }]);
  });

  it('when another worker holds a lease, then reconcile leaves it alone', async () => {
    const mine = workerWith();
    await enqueue([
      greet.job({ subjectId: null, payload: { name: 'Theirs', times: 1 }, runAt: h.clock.now() }),
    ]);
    await claimDueJobs(h.database.db, h.clock.now(), 10, 120, 'another-worker');
    expect(await mine.reconcile()).toEqual([]);
    expect(await jobRows()).toMatchObject([{ status: 'running', attempts: 1 }]);
  });
});

describe('giving up', () => {
  // Fails every attempt; tried twice, the second attempt at once.
  const doomed = defineJob({
    kind: 'test-doomed',
    payload: z.strictObject({ name: z.string() }),
    maxAttempts: 2,
    timeoutMs: 5_000,
    retryDelayMs: () => 0,
  });
  const told = (name: string) =>
    greet.job({ subjectId: null, payload: { name, times: 1 }, runAt: new Date('2030-01-01T00:00:00Z') });

  it('when a job’s last attempt fails, then its give-up hook runs once, in the transaction that records the failure, with the error; a failed attempt that is retried calls nothing', async () => {
    await enqueue([doomed.job({ subjectId: null, payload: { name: 'An' }, runAt: h.clock.now() })]);
    const calls: unknown[] = [];
    const worker = workerWith();
    worker.register(
      doomed,
      async () => {
        throw new Error('relay down');
      },
      {
        onGiveUp: async (tx, ctx, job, error) => {
          // The failure is already written in this transaction: the hook's writes commit with it.
          const [self] = await queryRows<{ status: string }>(
            tx,
            sql`SELECT status FROM jobs WHERE id = ${job.id}::uuid`,
          );
          calls.push({ name: job.payload.name, attempt: job.attempt, error, status: self?.status });
          await jobRepository(tx, ctx).enqueue([told(job.payload.name)], ctx.at);
        },
      },
    );
    expect(await worker.drain()).toBe(2);
    expect(calls).toEqual([{ name: 'An', attempt: 2, error: 'relay down', status: 'failed' }]);
    expect(await jobRows()).toEqual([
      expect.objectContaining({
        kind: 'test-doomed',
        status: 'failed',
        attempts: 2,
        last_error: 'relay down',
      }),
      expect.objectContaining({ kind: 'test-greet', status: 'pending', attempts: 0 }),
    ]);
  });

  it('when the job’s lease was taken over before it failed, then its hook does not run', async () => {
    await enqueue([doomed.job({ subjectId: null, payload: { name: 'Bo' }, runAt: h.clock.now() })]);
    let called = false;
    const worker = workerWith();
    worker.register(
      doomed,
      async (job) => {
        // Another worker's claim after this one's lease ended (a stalled attempt).
        await inTenant(h.database, ctx(), (tx) =>
          tx.execute(sql`UPDATE jobs SET lease_token = gen_random_uuid() WHERE id = ${job.id}::uuid`),
        );
        throw new PermanentJobError('no address');
      },
      {
        onGiveUp: async () => {
          called = true;
        },
      },
    );
    await worker.drain();
    expect(called).toBe(false);
    expect(await jobRows()).toEqual([expect.objectContaining({ status: 'running', attempts: 1 })]);
  });

  it('when the hook itself fails, then its writes are rolled back and the failure is recorded alone, so the job does not run on', async () => {
    await enqueue([doomed.job({ subjectId: null, payload: { name: 'Cas' }, runAt: h.clock.now() })]);
    const worker = workerWith();
    worker.register(
      doomed,
      async () => {
        throw new PermanentJobError('no address');
      },
      {
        onGiveUp: async (tx, ctx, job) => {
          await jobRepository(tx, ctx).enqueue([told(job.payload.name)], ctx.at);
          throw new Error('a bug in the hook');
        },
      },
    );
    expect(await worker.drain()).toBe(1);
    expect(await jobRows()).toEqual([
      expect.objectContaining({
        kind: 'test-doomed',
        status: 'failed',
        attempts: 1,
        last_error: 'no address',
      }),
    ]);
  });
});
