import { AsyncLocalStorage } from 'node:async_hooks';
import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../kernel/context';
import { Unauthenticated } from '../kernel/errors';
import {
  type Database,
  enter,
  queryRows,
  type RequestStamp,
  type Row,
  type TenantEntry,
  type Tx,
} from './database';

const entryOf = (ctx: RequestContext): TenantEntry => ({
  organisationId: ctx.organisationId,
  userId: ctx.userId,
  apiKeyId: ctx.apiKeyId,
  tokenId: ctx.caller.kind === 'bearer' ? ctx.caller.tokenId : null,
  authVersion: ctx.authVersion,
  at: ctx.at,
  stamp: stampOf(ctx),
});

/** Who acts, as the audit trail records it (the database writes it with every changed row). */
export function stampOf(ctx: RequestContext): RequestStamp {
  const c = ctx.caller;
  if (ctx.acting) {
    return {
      actor: 'oauth_client',
      user: ctx.acting.userId,
      credential: ctx.acting.clientId,
      label: ctx.label ?? null,
      id: ctx.requestId === 'system' ? null : ctx.requestId,
      address: ctx.address ?? null,
      at: ctx.at.toISOString(),
    };
  }
  const actor =
    c.kind === 'session'
      ? 'user'
      : c.kind === 'bearer'
        ? 'oauth_client'
        : c.kind === 'api_key'
          ? 'api_key'
          : c.kind;
  return {
    actor,
    user: ctx.userId,
    credential: c.kind === 'api_key' ? c.apiKeyId : c.kind === 'bearer' ? c.clientId : null,
    label: ctx.label ?? null,
    id: ctx.requestId === 'system' || ctx.requestId === 'contact' ? null : ctx.requestId,
    address: ctx.address ?? null,
    at: ctx.at.toISOString(),
  };
}

/**
 * Runs `fn` in one transaction scoped to the context's organisation: row-level security shows it
 * nothing else, and the caller's credentials are confirmed current before `fn` starts.
 */
export async function inTenant<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const request = held.getStore();
  if (request?.takes(ctx)) return request.join(fn);
  return openTenant(database, ctx, fn);
}

/**
 * Like inTenant, with a first read sent together with the transaction's opening: on the server one
 * round trip fewer (BEGIN, the entry and the read go as one message). `fn` gets the read's rows, read
 * again when the credentials had to be re-checked first.
 */
export async function inTenantOpening<T>(
  database: Database,
  ctx: RequestContext,
  opening: SQL,
  fn: (tx: Tx, opened: Row[]) => Promise<T>,
): Promise<T> {
  const request = held.getStore();
  if (request?.takes(ctx)) return request.join(async (tx) => fn(tx, await queryRows<Row>(tx, opening)));
  return openTenant(database, ctx, fn, opening);
}

/**
 * Like inTenant, but always in a transaction of its own, also while a request holds one (see
 * HeldTransaction): for writes that must not wait for the request's outcome or hold its transaction
 * open, such as file bytes streamed in before the request's first statement.
 */
export function inOwnTenantTransaction<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return openTenant(database, ctx, fn);
}

/** The tenant transaction whose callback is running, if any (see inActiveOrOwnTransaction). */
const active = new AsyncLocalStorage<{ organisationId: string; tx: Tx }>();

/**
 * Runs `fn` in the organisation's transaction whose callback is running now (a read made while a
 * transaction holds the rows it reads), or else in a transaction of its own: never a second
 * connection while the caller holds one (the pool could run dry, and the embedded database runs one
 * transaction at a time).
 */
export function inActiveOrOwnTransaction<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const current = active.getStore();
  if (current && current.organisationId === ctx.organisationId) return fn(current.tx);
  return openTenant(database, ctx, fn);
}

function openTenant<T>(
  database: Database,
  ctx: RequestContext,
  fn: (tx: Tx, opened: Row[]) => Promise<T>,
  opening?: SQL,
): Promise<T> {
  return database.tenantTransaction(
    entryOf(ctx),
    async (tx, entered, opened) => {
      let rows = opened;
      if (entered === 'stale') {
        if (!ctx.revalidate) throw new Unauthenticated('Credentials are no longer valid');
        await ctx.revalidate(tx);
        if ((await enter(tx, entryOf(ctx))) === 'stale')
          throw new Unauthenticated('Credentials are no longer valid');
        // The opening read ran before the credentials were confirmed: it is read again.
        if (opening) rows = await queryRows<Row>(tx, opening);
      }
      return active.run({ organisationId: ctx.organisationId, tx }, () => fn(tx, rows));
    },
    opening,
  );
}

/**
 * Runs statements for the context's organisation in one transaction and returns their rows. On the
 * server this is one round trip; when the credentials turn out stale it falls back to inTenant, which
 * re-checks them. The statements run before the entry's answer is known, so statements that write
 * (`writes: true`) are only allowed for a system context, whose entry is never stale.
 */
export async function batchInTenant(
  database: Database,
  ctx: RequestContext,
  statements: SQL[],
  opts: { writes?: boolean } = {},
): Promise<Row[][]> {
  if (opts.writes && ctx.userId !== null) throw new Error('batchInTenant: writes need a system context');
  const request = held.getStore();
  if (request?.takes(ctx)) return request.join((tx) => runEach(tx, statements));
  const batch = await database.tenantBatch(entryOf(ctx), statements);
  if (batch.entered === 'ok') return batch.rows;
  return inTenant(database, ctx, (tx) => runEach(tx, statements));
}

async function runEach(tx: Tx, statements: SQL[]): Promise<Row[][]> {
  const rows: Row[][] = [];
  for (const statement of statements) rows.push(await queryRows<Row>(tx, statement));
  return rows;
}

/**
 * One transaction held open for a whole request: the first `inTenant` of the request opens it (running
 * `onOpen` first), every later one joins it in a savepoint, one at a time, and the route decides at the
 * end whether it commits (with what `finish` writes) or rolls back. Used for requests whose answer must
 * commit with their work (Idempotency-Key).
 */
export class HeldTransaction {
  private tx?: Promise<Tx>;
  private release?: (how: { commit: (tx: Tx) => Promise<void> } | { rollback: unknown }) => void;
  private settled?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set once the request's work is over (committing or rolling back): nothing joins any more. */
  private closed = false;

  constructor(
    private readonly database: Database,
    readonly ctx: RequestContext,
    private readonly onOpen: (tx: Tx) => Promise<void>,
  ) {}

  get opened(): boolean {
    return this.tx !== undefined;
  }

  /** Whether a transaction for `ctx` joins this one: the same organisation, while the request works. */
  takes(ctx: RequestContext): boolean {
    return !this.closed && ctx.organisationId === this.ctx.organisationId;
  }

  /** The held transaction, opened on first use. */
  open(): Promise<Tx> {
    if (this.tx) return this.tx;
    const released = new Promise<Parameters<NonNullable<typeof this.release>>[0]>((resolve) => {
      this.release = resolve;
    });
    this.tx = new Promise<Tx>((resolve, reject) => {
      this.settled = openTenant(this.database, this.ctx, async (tx) => {
        await this.onOpen(tx);
        resolve(tx);
        const how = await released;
        if ('rollback' in how) throw how.rollback;
        await how.commit(tx);
      });
      this.settled.catch(reject);
    });
    return this.tx;
  }

  /**
   * Runs `fn` in the held transaction, in a savepoint: a failure undoes only its own statements, as if
   * it had been a transaction of its own. One at a time.
   */
  async join<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const tx = await this.open();
    const run = this.queue.then(async () => {
      await tx.execute(sql.raw('SAVEPOINT joined'));
      try {
        const value = await fn(tx);
        // Code that records its own events switches the row records off for its work only.
        await tx.execute(sql.raw("SELECT set_config('app.audit_rows', 'on', true)"));
        await tx.execute(sql.raw('RELEASE SAVEPOINT joined'));
        return value;
      } catch (err) {
        await tx.execute(sql.raw('ROLLBACK TO SAVEPOINT joined')).catch(() => undefined);
        throw err;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Commits, writing `last` first; throws when the commit fails. */
  async commit(last: (tx: Tx) => Promise<void>): Promise<void> {
    this.closed = true;
    await this.open();
    await this.queue;
    this.release?.({ commit: last });
    await this.settled;
  }

  /** Rolls back whatever was done (nothing when it never opened). */
  async rollback(reason: unknown): Promise<void> {
    this.closed = true;
    if (!this.tx) return;
    await this.queue;
    this.release?.({ rollback: reason });
    await this.settled?.catch(() => undefined);
  }
}

const held = new AsyncLocalStorage<HeldTransaction>();

/** Runs `fn` with `transaction` as the request's held transaction. */
export function holding<T>(transaction: HeldTransaction, fn: () => Promise<T>): Promise<T> {
  return held.run(transaction, fn);
}
