import {
  AccessTokens,
  basicAuthorization,
  type OAuthClientCredentials,
  type TokenAnswer,
} from './credentials.js';
import { ActionDeskConnectionError, type ActionDeskError, errorFromAnswer } from './errors.js';
import { ListCall, type Page, SyncCall, type SyncFrom } from './pagination.js';
import {
  type Outcome,
  type RetryOptions,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
  retryPolicy,
  sleep,
} from './retry.js';
import type { OperationSpec } from './spec.js';
import { VERSION } from './version.js';
import { bodyOf, urlOf } from './wire.js';

export type Credentials =
  | { apiKey: string; oauth?: never }
  | { oauth: OAuthClientCredentials; apiKey?: never };

export type ClientOptions = Credentials & {
  /** Where the service is: `https://desk.example.com` (a trailing `/api/v1` is ignored). */
  baseUrl: string;
  retry?: RetryOptions;
  /** How long one attempt may take before it counts as lost (default 60 s). */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to send with; the global `fetch` by default. */
  fetch?: typeof fetch;
  /** How to wait between attempts (tests pass one that records the waits instead). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock, in epoch milliseconds: token expiry and `Retry-After` dates. */
  now?: () => number;
  /** A number in [0, 1) for the back-off's jitter. */
  random?: () => number;
  /** Makes the Idempotency-Key of a call (a random UUID by default). */
  idempotencyKey?: () => string;
};

/** What a call may set for itself. */
export interface CallOptions {
  /** The call's Idempotency-Key, for an operation that takes one; a new UUID by default. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Attempts for this call (default: the client's `retry.maxAttempts`). */
  maxAttempts?: number;
  /** Sends the call again after a 503 or a lost answer even when it is a POST without Idempotency-Key. */
  safeToRetry?: boolean;
  /** Told of the answer the call ends with: its status, request id and headers. */
  onAnswer?: (answer: AnswerInfo) => void;
}

export interface AnswerInfo {
  status: number;
  requestId: string | undefined;
  /** The service answered a retry with the stored answer of an earlier attempt (Idempotent-Replayed). */
  replayed: boolean;
  headers: Headers;
  attempts: number;
}

/** The parts of a call: path parameters, query and body. */
export interface CallInput {
  path?: Record<string, string>;
  query?: object;
  body?: unknown;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Sends the operations: credentials, retries with back-off, Idempotency-Keys, errors, lists. */
export class Transport {
  private readonly baseUrl: string;
  private readonly policy: RetryPolicy;
  private readonly fetch: typeof fetch;
  private readonly tokens: AccessTokens | undefined;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  private readonly random: () => number;
  private readonly newKey: () => string;

  constructor(private readonly options: ClientOptions) {
    if (!options.apiKey && !options.oauth)
      throw new TypeError('ActionDesk client: give an apiKey or oauth credentials');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.policy = retryPolicy(options.retry);
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.wait = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
    const oauth = options.oauth;
    if (oauth) this.tokens = new AccessTokens(() => this.fetchToken(oauth), this.now, oauth.refreshBeforeMs);
  }

  /** Calls an operation and answers its body. */
  async request<R>(spec: OperationSpec, input: CallInput, options: CallOptions = {}): Promise<R> {
    return (await this.send(spec, input, options)).body as R;
  }

  /** A list: its first page when awaited, every item across its pages when iterated. */
  list<P, I>(spec: OperationSpec, input: CallInput, options: CallOptions = {}): ListCall<P, I> {
    return new ListCall<P, I>(spec, input.query ?? {}, (query) =>
      this.page<P, I>(spec, { ...input, query }, options),
    );
  }

  /** What a list holds that was created or changed since `from`, page after page. */
  sync<P, I>(spec: OperationSpec, input: CallInput, from: SyncFrom, options: CallOptions = {}): SyncCall<I> {
    return new SyncCall<I>(spec, input.query ?? {}, from, (query) =>
      this.page<P, I>(spec, { ...input, query }, options),
    );
  }

  private async page<P, I>(spec: OperationSpec, input: CallInput, options: CallOptions): Promise<Page<P, I>> {
    const { body, headers } = await this.send(spec, input, options);
    const items = spec.list?.items;
    if (items === null || items === undefined) {
      // A bare array: the cursor comes in headers.
      return {
        page: body as P,
        items: body as I[],
        hasMore: headers.get('has-more') === 'true',
        nextCursor: headers.get('next-cursor'),
      };
    }
    const record = body as Record<string, unknown>;
    return {
      page: body as P,
      items: (record[items] ?? []) as I[],
      hasMore: record.hasMore === true,
      nextCursor: typeof record.nextCursor === 'string' ? record.nextCursor : null,
    };
  }

  /** Sends the call until it is answered, retrying what may be retried; refusals become ActionDeskErrors. */
  async send(
    spec: OperationSpec,
    input: CallInput,
    options: CallOptions = {},
  ): Promise<{ body: unknown; headers: Headers; status: number }> {
    const key = spec.idempotent ? (options.idempotencyKey ?? this.newKey()) : undefined;
    const policy = { ...this.policy, maxAttempts: options.maxAttempts ?? this.policy.maxAttempts };
    const safe = options.safeToRetry === true || spec.method !== 'POST' || key !== undefined;
    let renewedToken = false;
    for (let attempt = 1; ; attempt++) {
      const token = spec.auth && this.tokens ? await this.tokens.token() : undefined;
      let outcome: Outcome;
      let answer: Answer | undefined;
      let lost: unknown;
      try {
        answer = await this.attempt(spec, input, options, { key, token });
        if (answer.status < 300) return this.accepted(answer, options, attempt);
        const retryAfter = retryAfterMs(answer.headers.get('retry-after'), this.now());
        outcome = {
          kind: 'answer',
          status: answer.status,
          retryAfterMs: retryAfter,
          keyInProgress: inProgress(answer),
        };
      } catch (err) {
        if (options.signal?.aborted) throw err;
        lost = err;
        outcome = { kind: 'no answer', neverSent: neverSent(err) };
      }
      // A refused token (revoked, or expired before its time): one new token, then the call again.
      if (answer?.status === 401 && token && this.tokens && !renewedToken) {
        renewedToken = true;
        this.tokens.forget(token);
        continue;
      }
      const delay = retryDelayMs(outcome, attempt, safe, policy, this.random);
      if (delay === null) {
        if (!answer) throw new ActionDeskConnectionError(spec.id, attempt, { cause: lost });
        throw this.refused(spec, answer, options, attempt);
      }
      await this.wait(delay, options.signal);
    }
  }

  private async attempt(
    spec: OperationSpec,
    input: CallInput,
    options: CallOptions,
    auth: { key: string | undefined; token: string | undefined },
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `actiondesk-client/${VERSION}`,
      ...this.options.headers,
    };
    if (spec.auth && this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (auth.token) headers.authorization = `Bearer ${auth.token}`;
    if (auth.key) headers['idempotency-key'] = auth.key;
    const body = bodyOf(spec, input.body, headers);
    Object.assign(headers, options.headers);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const abort = () => timeout.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const res = await this.fetch(urlOf(this.baseUrl, spec, input), {
        method: spec.method,
        headers,
        body,
        signal: timeout.signal,
        // A redirect would carry the API key to wherever it points: never followed.
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
  }

  private accepted(answer: Answer, options: CallOptions, attempts: number) {
    options.onAnswer?.(info(answer, attempts));
    const json = (answer.headers.get('content-type') ?? '').includes('json');
    const body = answer.text === '' ? undefined : json ? JSON.parse(answer.text) : answer.text;
    return { body, headers: answer.headers, status: answer.status };
  }

  private refused(
    spec: OperationSpec,
    answer: Answer,
    options: CallOptions,
    attempts: number,
  ): ActionDeskError {
    options.onAnswer?.(info(answer, attempts));
    return errorFromAnswer({
      operationId: spec.id,
      status: answer.status,
      text: answer.text,
      requestId: answer.headers.get('x-request-id') ?? undefined,
      retryAfterMs: retryAfterMs(answer.headers.get('retry-after'), this.now()),
    });
  }

  /** Client credentials → an access token, from the service's token endpoint. */
  private fetchToken(oauth: OAuthClientCredentials): Promise<TokenAnswer> {
    const body: Record<string, string> = { grant_type: 'client_credentials' };
    if (oauth.scope) body.scope = oauth.scope;
    return this.request<TokenAnswer>(
      TOKEN_ENDPOINT,
      { body },
      {
        headers: { authorization: basicAuthorization(oauth.clientId, oauth.clientSecret) },
        // A second token is harmless: the fetch is retried like a GET.
        safeToRetry: true,
      },
    );
  }
}

/** The token endpoint, as the generated specs describe it (kept here so the runtime stands alone). */
const TOKEN_ENDPOINT: OperationSpec = {
  id: 'oauthToken',
  method: 'POST',
  path: '/api/v1/auth/oauth/token',
  auth: false,
  idempotent: false,
  body: 'form',
  list: null,
};

const info = (answer: Answer, attempts: number): AnswerInfo => ({
  status: answer.status,
  requestId: answer.headers.get('x-request-id') ?? undefined,
  replayed: answer.headers.get('idempotent-replayed') === 'true',
  headers: answer.headers,
  attempts,
});

/** A 409 saying the first request with this Idempotency-Key has not finished. */
function inProgress(answer: Answer): boolean {
  if (answer.status !== 409) return false;
  try {
    const body = JSON.parse(answer.text) as { details?: { field?: string; in?: string }[] };
    return (body.details ?? []).some((d) => d.field === 'Idempotency-Key' && d.in === 'header');
  } catch {
    return false;
  }
}

/** The request cannot have reached the service: the connection was never made. */
function neverSent(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && NEVER_SENT.has(code);
}
