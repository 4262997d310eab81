import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import type { Database } from '../db/database';
import type { Clock } from '../kernel/clock';
import type { RequestContext } from '../kernel/context';
import { AppError, TooManyRequests } from '../kernel/errors';
import { clientAddress } from './address';
import { rateCounterRepository } from './rate-counters.repository';

/** A limit: at most `limit` requests (or attempts) per client in each fixed window of `windowMs`. */
export interface LimitRule {
  readonly limit: number;
  readonly windowMs: number;
}

/** The limits of the service (docs/api.md#rate-limits); `api` may be set per organisation. */
export interface RateLimitConfig {
  /** Each API key, OAuth client and staff user, per organisation default (admin may change it). */
  readonly api: LimitRule;
  /** Each address, on routes and pages that need no credentials (the action link, the OpenAPI document). */
  readonly public: LimitRule;
  /** Each address, on sign-in, single sign-on start and password pages. */
  readonly signin: LimitRule;
  /** Each address, on the OAuth token, revocation and introspection endpoints. */
  readonly token: LimitRule;
  /** Each address: unknown action codes tried. */
  readonly wrongCodes: LimitRule;
  /** Each address: new visitors of a campaign link. */
  readonly newVisitors: LimitRule;
}

/** The limiters that count per address, by the name they carry in the `RateLimit` headers. */
export type AddressLimit = 'public' | 'signin' | 'token';

/** How long a counter is kept after its window ended, and how often an instance sweeps them. */
const PRUNE_AFTER_MS = 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** At most this many blocked addresses are remembered per instance (beyond, they are counted as usual). */
const BLOCKED_REMEMBERED = 10_000;

/** The client's address as a limit's key: IPv6 by its /56 network (one subscriber), IPv4 as is. */
export const addressKey = (req: Request): string =>
  ipKeyGenerator((clientAddress(req) ?? 'unknown').slice(0, 100), 56);

/**
 * Far from its limit, an instance counts a client's hits in memory and adds them to the shared count
 * `BATCH` at a time: one write per `BATCH` requests instead of one each. Within `BATCH_MARGIN` of the
 * limit (as the instance last saw the shared count), and for a client's first hit of a window on this
 * instance, every hit is written at once, as with no batching: so small limits stay exact.
 *
 * The bound (docs/api.md#rate-limits): at most `BATCH - 1` hits wait in memory and at most one write of
 * `BATCH` is under way per client on each instance, so the hits the shared count does not have yet are
 * fewer than `2 × BATCH` per instance, and N instances together let through at most
 * limit + N × (2 × BATCH − 1) requests in a window. One instance alone is exact: it sees all its hits.
 */
export const BATCH = 10;
export const BATCH_MARGIN = 4 * BATCH;
/** At most this many clients' in-memory counts per counter (beyond, ended windows are dropped first). */
const LOCAL_REMEMBERED = 10_000;

/** What an instance knows of one client's count in the current window. */
interface LocalCount {
  /** The window's end (ms since the epoch). */
  end: number;
  /** The shared count as the last write answered it (this instance's written hits included). */
  shared: number;
  /** Hits counted here and not yet written. */
  pending: number;
  /** The write under way, with the hits it carries. */
  writing: { hits: number; done: Promise<unknown> } | null;
}

/**
 * A count per client in fixed windows on the app's clock, kept in the database so that every instance
 * sees the same count. Windows are aligned (a multiple of the window since the epoch), so instances
 * agree where one ends.
 */
export class SharedCounter {
  private readonly local = new Map<string, LocalCount>();

  constructor(
    private readonly deps: { database: Database; clock: Clock; sweep: () => Promise<void> },
    /** Prefix of the counter's keys: the limit's name. */
    readonly name: string,
    readonly rule: LimitRule,
  ) {}

  windowEnd(now = this.deps.clock.now()): Date {
    const w = this.rule.windowMs;
    return new Date(Math.floor(now.getTime() / w) * w + w);
  }

  /** Counts one hit for `client`; answers the hits in this window and when it ends. */
  async hit(client: string): Promise<{ hits: number; resetAt: Date }> {
    const end = this.windowEnd();
    for (;;) {
      const count = this.local.get(client);
      if (!count || count.end !== end.getTime()) return this.write(client, end, 1);
      const unwritten = count.pending + (count.writing?.hits ?? 0);
      if (count.shared + unwritten + 1 > this.rule.limit - BATCH_MARGIN) return this.write(client, end, 1);
      if (count.pending + 1 < BATCH) {
        count.pending++;
        return { hits: count.shared + unwritten + 1, resetAt: end };
      }
      // A full batch: written now, unless the previous one is still under way (then wait for it).
      if (!count.writing) return this.write(client, end, 1);
      await count.writing.done;
    }
  }

  /**
   * Adds `hits` and what waits in memory for `client` to the shared count, and remembers what it
   * answers. A write that fails leaves the waiting hits where they were.
   */
  private async write(client: string, end: Date, hits: number): Promise<{ hits: number; resetAt: Date }> {
    await this.deps.sweep();
    let count = this.local.get(client);
    if (!count || count.end !== end.getTime()) {
      count = { end: end.getTime(), shared: 0, pending: 0, writing: null };
      this.remember(client, count);
    }
    const carried = count.pending + hits;
    count.pending = 0;
    const done = rateCounterRepository(this.deps.database.db).hit(`${this.name}:${client}`, end, carried);
    const writing = { hits: carried, done: done.catch(() => undefined) };
    count.writing ??= writing;
    try {
      const answer = await done;
      if (answer.resetAt.getTime() === count.end) count.shared = Math.max(count.shared, answer.hits);
      // Another instance's clock is in a later window: count no more in memory, write every hit.
      else if (this.local.get(client) === count) this.local.delete(client);
      // Hits counted here while the write was under way are not in its answer yet.
      return { hits: answer.hits + count.pending, resetAt: answer.resetAt };
    } catch (err) {
      count.pending += carried - hits;
      throw err;
    } finally {
      if (count.writing === writing) count.writing = null;
    }
  }

  private remember(client: string, count: LocalCount): void {
    if (this.local.size >= LOCAL_REMEMBERED) {
      const now = this.deps.clock.now().getTime();
      for (const [k, c] of this.local) if (c.end <= now) this.local.delete(k);
      if (this.local.size >= LOCAL_REMEMBERED) this.local.clear();
    }
    this.local.set(client, count);
  }

  /** Seconds `client` must wait when it has used up this window, else 0. */
  async blocked(client: string): Promise<number> {
    const now = this.deps.clock.now();
    const end = this.windowEnd(now);
    const shared = await rateCounterRepository(this.deps.database.db).peek(`${this.name}:${client}`, end);
    const count = this.local.get(client);
    const hits = shared + (count && count.end === end.getTime() ? count.pending : 0);
    return hits >= this.rule.limit ? secondsUntil(end, now) : 0;
  }

  async unhit(client: string): Promise<void> {
    const count = this.local.get(client);
    if (count && count.pending > 0) {
      count.pending--;
      return;
    }
    await rateCounterRepository(this.deps.database.db).unhit(`${this.name}:${client}`);
  }

  async reset(client: string): Promise<void> {
    this.local.delete(client);
    await rateCounterRepository(this.deps.database.db).reset(`${this.name}:${client}`);
  }
}

const secondsUntil = (end: Date, now: Date) => Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));

/** express-rate-limit's store over a shared counter. */
class SharedStore implements Store {
  constructor(
    private readonly counter: SharedCounter,
    private readonly clock: Clock,
  ) {}
  /** The counter is in the database, shared by every instance: not a per-process store. */
  readonly localKeys = false;
  async increment(key: string) {
    const { hits, resetAt } = await this.counter.hit(key);
    // express-rate-limit reads the time left against the real clock: the same distance from now.
    return {
      totalHits: hits,
      resetTime: new Date(Date.now() + (resetAt.getTime() - this.clock.now().getTime())),
    };
  }
  async decrement(key: string) {
    await this.counter.unhit(key);
  }
  async resetKey(key: string) {
    await this.counter.reset(key);
  }
}

const perWindow = (rule: LimitRule) => {
  const seconds = Math.round(rule.windowMs / 1000);
  if (seconds === 60) return 'a minute';
  if (seconds % 60 === 0) return `per ${seconds / 60} minutes`;
  return `per ${seconds} seconds`;
};

/** Who is counted for an authenticated request: the credential it came with. */
function callerKey(ctx: RequestContext): { key: string; who: string } {
  const c = ctx.caller;
  switch (c.kind) {
    case 'api_key':
      return { key: `key:${c.apiKeyId}`, who: 'this API key' };
    case 'bearer':
      return { key: `client:${c.clientId}`, who: 'this OAuth client' };
    case 'session':
      return { key: `user:${c.userId}`, who: 'your account' };
    default:
      return { key: `org:${ctx.organisationId}`, who: 'this organisation' };
  }
}

/**
 * The service's rate limits (express-rate-limit over one shared counter table): per credential on
 * the API, per address on what needs no credentials, stricter on sign-in and token routes. A refused
 * request gets 429 in the error shape with `Retry-After`; every limited answer carries the IETF
 * `RateLimit-Policy` and `RateLimit` headers (draft 8).
 */
export class RateLimits {
  private lastSweep = 0;
  private readonly cache = new Map<string, { limit: number; until: number }>();
  private readonly byAddress = new Map<AddressLimit, RequestHandler>();
  /**
   * Addresses past the bad-credentials limit, until their window ends (one map for every route of this
   * instance): refused without another write to the shared count, so a flood of bad keys costs a key
   * lookup each, not a lookup and an upsert.
   */
  private readonly blockedUntil = new Map<string, Date>();

  private rememberBlocked(key: string, until: Date, now: Date): void {
    const blocked = this.blockedUntil;
    if (blocked.size >= BLOCKED_REMEMBERED) {
      for (const [k, end] of blocked) if (end <= now) blocked.delete(k);
      if (blocked.size >= BLOCKED_REMEMBERED) return;
    }
    blocked.set(key, until);
  }
  private callerLimiter?: RequestHandler;

  constructor(
    private readonly deps: {
      database: Database;
      clock: Clock;
      config: RateLimitConfig;
      /** The organisation's own API limit (requests a minute), or null for the default. */
      organisationLimit: (ctx: RequestContext) => Promise<number | null>;
      /** How long an organisation's limit is cached by each instance. */
      cacheMs?: number;
    },
  ) {}

  get config(): RateLimitConfig {
    return this.deps.config;
  }

  /** A counter of this limit's name, for counts a route keeps itself (wrong action codes). */
  counter(name: string, rule: LimitRule): SharedCounter {
    return new SharedCounter({ ...this.deps, sweep: () => this.sweep() }, name, rule);
  }

  /** The organisation's API limit has changed: this instance reads it again (others within the cache time). */
  forget(organisationId: string): void {
    this.cache.delete(organisationId);
  }

  /** The API limit in force for the organisation. */
  async apiLimit(ctx: RequestContext): Promise<number> {
    const now = this.deps.clock.now().getTime();
    const cached = this.cache.get(ctx.organisationId);
    if (cached && cached.until > now) return cached.limit;
    const limit = (await this.deps.organisationLimit(ctx)) ?? this.deps.config.api.limit;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(ctx.organisationId, { limit, until: now + (this.deps.cacheMs ?? 30_000) });
    return limit;
  }

  /** After authentication: counts the request against its credential (`req.ctx`). */
  caller(): RequestHandler {
    if (this.callerLimiter) return this.callerLimiter;
    const rule = this.deps.config.api;
    this.callerLimiter = this.limiter('api', rule, {
      key: (req) => callerKey(req.ctx as RequestContext).key,
      limit: (req) => this.apiLimit(req.ctx as RequestContext),
      message: (req, limit) =>
        `Too many requests: ${callerKey(req.ctx as RequestContext).who} may make ${limit} requests a minute`,
    });
    return this.callerLimiter;
  }

  /**
   * Around authentication: a request refused for its credentials (401) counts against its address, as
   * requests without credentials do (the `public` limit); past it, the answer is 429. Requests with
   * valid credentials are counted per credential only, so one office's colleagues never block each other.
   */
  unauthenticated(authenticate: RequestHandler): RequestHandler {
    const rule = this.deps.config.public;
    const counter = this.counter('unauthenticated', rule);
    return async (req, res, next) => {
      try {
        await new Promise<void>((resolve, reject) => {
          const ran = authenticate(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
          if (ran instanceof Promise) ran.catch(reject);
        });
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        // The refusal stands as it is when the count cannot be taken (a malformed key never reached the
        // database; it may be down).
        const key = addressKey(req);
        const now = this.deps.clock.now();
        const known = this.blockedUntil.get(key);
        const counted =
          known && known > now
            ? { hits: rule.limit + 1, resetAt: known }
            : await counter.hit(key).catch(() => null);
        if (!counted || counted.hits <= rule.limit) throw err;
        const { resetAt } = counted;
        if (known !== resetAt) this.rememberBlocked(key, resetAt, now);
        const wait = secondsUntil(resetAt, now);
        throw new TooManyRequests(
          `Too many requests without valid credentials from your address: at most ${rule.limit} ${perWindow(rule)}; retry after ${wait} second${wait === 1 ? '' : 's'}`,
          wait,
        );
      }
      next();
    };
  }

  /** Counts the request against the client's address. */
  address(name: AddressLimit): RequestHandler {
    const known = this.byAddress.get(name);
    if (known) return known;
    const rule = this.deps.config[name];
    const what = { public: 'requests', signin: 'sign-in attempts', token: 'token requests' }[name];
    const limiter = this.limiter(name, rule, {
      key: addressKey,
      limit: () => rule.limit,
      message: () => `Too many ${what} from your address: at most ${rule.limit} ${perWindow(rule)}`,
    });
    this.byAddress.set(name, limiter);
    return limiter;
  }

  private limiter(
    name: string,
    rule: LimitRule,
    how: {
      key: (req: Request) => string;
      limit: (req: Request) => number | Promise<number>;
      message: (req: Request, limit: number) => string;
    },
  ): RequestHandler {
    const counter = this.counter(name, rule);
    return rateLimit({
      windowMs: rule.windowMs,
      limit: how.limit,
      keyGenerator: how.key,
      identifier: name,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      store: new SharedStore(counter, this.deps.clock),
      // A database that does not answer is the request's failure (503), not a pass.
      passOnStoreError: false,
      validate: { xForwardedForHeader: false, trustProxy: false },
      handler: (req, _res, next) => {
        const info = (req as Request & { rateLimit?: { limit: number; resetTime?: Date } }).rateLimit;
        const limit = info?.limit ?? rule.limit;
        // The window's end as the shared counter has it (another instance's clock may be ahead).
        const end = info?.resetTime ?? counter.windowEnd();
        const wait = secondsUntil(end, info?.resetTime ? new Date() : this.deps.clock.now());
        next(
          new TooManyRequests(
            `${how.message(req, limit)}; retry after ${wait} second${wait === 1 ? '' : 's'}`,
            wait,
          ),
        );
      },
    });
  }

  /** Now and then, drops counters of windows long past (each instance at most every 10 minutes). */
  private async sweep(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    if (now - this.lastSweep < PRUNE_EVERY_MS) return;
    this.lastSweep = now;
    await rateCounterRepository(this.deps.database.db).prune(new Date(now - PRUNE_AFTER_MS));
  }
}
