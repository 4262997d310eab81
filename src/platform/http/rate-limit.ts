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
 * A count per client in fixed windows on the app's clock, kept in the database so that every instance
 * sees the same count. Windows are aligned (a multiple of the window since the epoch), so instances
 * agree where one ends.
 */
export class SharedCounter {
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
    await this.deps.sweep();
    return rateCounterRepository(this.deps.database.db).hit(`${this.name}:${client}`, this.windowEnd());
  }

  /** Seconds `client` must wait when it has used up this window, else 0. */
  async blocked(client: string): Promise<number> {
    const now = this.deps.clock.now();
    const end = this.windowEnd(now);
    const hits = await rateCounterRepository(this.deps.database.db).peek(`${this.name}:${client}`, end);
    return hits >= this.rule.limit ? secondsUntil(end, now) : 0;
  }

  async unhit(client: string): Promise<void> {
    await rateCounterRepository(this.deps.database.db).unhit(`${this.name}:${client}`);
  }

  async reset(client: string): Promise<void> {
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
