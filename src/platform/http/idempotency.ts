import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { SecretBox } from '../crypto/sealed';
import type { Database } from '../db/database';
import { pgErrorCode } from '../db/errors';
import { HeldTransaction, holding } from '../db/tenant';
import type { RequestContext } from '../kernel/context';
import { AppError, BadRequest, Conflict } from '../kernel/errors';
import { redactUrl } from '../ops/redaction';
import { idempotencyRepository, type StoredAnswer } from './idempotency.repository';
import { withoutSecrets } from './shown-once';

/** How long a key's answer is kept and replayed. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** How long a request waits for another one holding the same key before it is answered 409. */
const IDEMPOTENCY_WAIT_MS = 10_000;

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key`, or null when it sent none; a malformed key is a 400. */
export function idempotencyKeyOf(req: Request): string | null {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !KEY.test(value)) {
    throw new BadRequest('Invalid header: Idempotency-Key: must be 1–255 visible ASCII characters', [
      {
        field: 'Idempotency-Key',
        in: 'header',
        message:
          'must be 1–255 visible ASCII characters, given once (a new UUID for each operation is a good key)',
      },
    ]);
  }
  return value;
}

const FINGERPRINT = Symbol('idempotency fingerprint');
type Fingerprinted = Request & { [FINGERPRINT]?: unknown };

/**
 * What stands for a body the platform does not parse (an upload): the route names it (the file's name
 * and SHA-256) before its first transaction, and a retry must send the same.
 */
export function fingerprintBody(req: Request, stand: unknown): void {
  (req as Fingerprinted)[FINGERPRINT] = stand;
}

/** JSON with object keys sorted, so the same request sent with its fields in another order matches. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

function requestHash(req: Request): string {
  const stand = (req as Fingerprinted)[FINGERPRINT];
  const body = stand !== undefined ? { upload: stand } : (req.body ?? null);
  return createHash('sha256')
    .update(canonical([req.method, req.originalUrl, body]))
    .digest('hex');
}

/** Whose keys these are: each credential has its own (two API keys may use the same key text). */
function credentialOf(ctx: RequestContext): string {
  const c = ctx.caller;
  switch (c.kind) {
    case 'api_key':
      return `key:${c.apiKeyId}`;
    case 'bearer':
      return `oauth:${c.clientId}:${c.userId}`;
    case 'session':
      return `user:${c.userId}`;
    default:
      return c.kind;
  }
}

/** The stored answer of an earlier request with the same key: sent again instead of doing the work. */
class Replay extends Error {
  constructor(readonly stored: StoredAnswer) {
    super('replay');
  }
}

export interface Answer {
  status: number;
  /** The JSON text, exactly as first sent (undefined: no body). */
  body: string | undefined;
  replayed: boolean;
}

/**
 * Idempotent requests (docs/api.md#idempotent-requests): a POST sent with an `Idempotency-Key` runs in
 * one transaction held for the whole request, which first takes the key (waiting while another request
 * holds it) and at the end stores the answer, so the work and its answer commit together or not at all.
 * The same key with the same request within 24 hours gets the stored answer (`Idempotent-Replayed:
 * true`); with another request, 422. An answer is stored only for a success: a refused request changed
 * nothing and may be sent again as it is. Secrets shown once (the route's `secrets`, from its answer's
 * schema: platform/http/shown-once.ts) are in the first answer only: the stored answer, and so every replay,
 * has them null and `secretAlreadyShown: true`.
 */
export class Idempotency {
  /** Requests of this instance holding a key: a duplicate waits here, not on a database connection. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { database: Database; box: SecretBox }) {}

  /** `secrets`: the answer's fields that are secrets shown once (platform/http/shown-once.ts), never stored. */
  async run(
    ctx: RequestContext,
    req: Request,
    key: string,
    status: number,
    work: () => Promise<string | undefined>,
    secrets: readonly string[],
  ): Promise<Answer> {
    const credential = credentialOf(ctx);
    const slot = JSON.stringify([ctx.organisationId, credential, key]);
    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    while (this.inFlight.has(slot)) {
      const left = deadline - Date.now();
      if (left <= 0) throw inProgress();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.inFlight.get(slot)?.catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, left);
        }),
      ]);
      clearTimeout(timer);
    }
    const running = this.runHeld(ctx, req, key, credential, status, work, secrets);
    this.inFlight.set(slot, running);
    try {
      return await running;
    } finally {
      if (this.inFlight.get(slot) === running) this.inFlight.delete(slot);
    }
  }

  /** Stored answers are sealed: they may hold personal data (a contact's details). */
  private seal(
    body: string | undefined,
    ctx: RequestContext,
    credential: string,
    key: string,
  ): string | null {
    return body === undefined
      ? null
      : this.deps.box.seal(body, `idempotency:${ctx.organisationId}:${credential}:${key}`);
  }

  private open(stored: StoredAnswer, ctx: RequestContext): string | undefined {
    if (stored.body === null) return undefined;
    if (!stored.body.startsWith('v1.')) return stored.body; // stored before answers were sealed
    return this.deps.box.open(
      stored.body,
      `idempotency:${ctx.organisationId}:${stored.credential}:${stored.key}`,
    );
  }

  private async runHeld(
    ctx: RequestContext,
    req: Request,
    key: string,
    credential: string,
    status: number,
    work: () => Promise<string | undefined>,
    secrets: readonly string[],
  ): Promise<Answer> {
    const transaction = new HeldTransaction(this.deps.database, ctx, async (tx) => {
      const keys = idempotencyRepository(tx, ctx);
      const hash = requestHash(req);
      await keys.prune(ctx.at);
      await keys.waitAtMost(IDEMPOTENCY_WAIT_MS);
      let taken: boolean;
      try {
        taken = await keys.claim({
          credential,
          key,
          requestHash: hash,
          method: req.method,
          path: redactUrl(req.originalUrl).slice(0, 2000),
          at: ctx.at,
          expiresAt: new Date(ctx.at.getTime() + IDEMPOTENCY_TTL_MS),
        });
      } catch (err) {
        if (pgErrorCode(err) === '55P03') throw inProgress();
        throw err;
      }
      await keys.waitAsUsual();
      if (taken) return;
      const stored = await keys.find(credential, key);
      if (!stored || stored.status === null) throw inProgress();
      if (stored.requestHash !== hash) throw reused(stored);
      throw new Replay(stored);
    });
    try {
      const body = await holding(transaction, work);
      await transaction.commit((tx) =>
        idempotencyRepository(tx, ctx).complete(
          credential,
          key,
          status,
          this.seal(body === undefined ? undefined : withoutSecrets(body, secrets), ctx, credential, key),
        ),
      );
      return { status, body, replayed: false };
    } catch (err) {
      await transaction.rollback(err);
      if (err instanceof Replay) {
        // Stripped again: an answer stored before secrets were left out of stored answers may hold one.
        const stored = this.open(err.stored, ctx);
        const body = stored === undefined ? undefined : withoutSecrets(stored, secrets);
        return { status: err.stored.status ?? 200, body, replayed: true };
      }
      throw err;
    }
  }
}

const inProgress = () =>
  new Conflict('A request with this Idempotency-Key is still in progress: retry it in a moment', [
    { field: 'Idempotency-Key', in: 'header', message: 'is held by a request that has not finished' },
  ]);

const reused = (stored: StoredAnswer) =>
  new AppError(
    422,
    `This Idempotency-Key was used for another request (${stored.method} ${stored.path.slice(0, 200)} with another body) in the last 24 hours: use a new key for a new operation`,
    [
      {
        field: 'Idempotency-Key',
        in: 'header',
        message: 'was used with another request body or path',
        value: stored.createdAt.toISOString(),
      },
    ],
  );
