import type { components } from './generated/schema.js';

type ErrorBody = components['schemas']['Error'];

/** One problem of a refused request: the field, where it was (`body`, `query`, `state`…), what is wrong. */
export type ErrorDetail = ErrorBody['details'][number];

/**
 * The service refused a request (any status from 300 up). `message` is the body's `error`
 * (`Invalid body: data.Email: must be an e-mail address`; for the OAuth endpoints with their
 * `error_description`); `details` lists each problem (empty when there is nothing more to say).
 */
export class ActionDeskError extends Error {
  override readonly name = 'ActionDeskError';
  /** The HTTP status. */
  readonly status: number;
  readonly details: ErrorDetail[];
  /** The X-Request-Id of the refused attempt: the service's logs know it. */
  readonly requestId: string | undefined;
  /** The OAuth endpoints' RFC 6749 error code (`invalid_client`, `invalid_scope`…). */
  readonly oauthError: string | undefined;
  /** The operation called (`createCustomer`). */
  readonly operationId: string;
  /** For a 429 or 503: how long the service asked to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** The body as answered: parsed JSON, or the text when it was not JSON. */
  readonly body: unknown;

  constructor(init: {
    message: string;
    status: number;
    details?: ErrorDetail[];
    requestId?: string;
    oauthError?: string;
    operationId: string;
    retryAfterMs?: number;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.oauthError = init.oauthError;
    this.operationId = init.operationId;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

/** The request never got an answer (connection refused or reset, timeout, DNS) on any attempt. */
export class ActionDeskConnectionError extends Error {
  override readonly name = 'ActionDeskConnectionError';
  constructor(
    readonly operationId: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      `${operationId}: no answer after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${describe(options.cause)}`,
      options,
    );
  }
}

const describe = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.message}${cause}`;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (d): d is ErrorDetail => isRecord(d) && typeof d.field === 'string' && typeof d.message === 'string',
  );
}

/** The error for a refused answer, from any of the service's three error bodies (or none). */
export function errorFromAnswer(answer: {
  operationId: string;
  status: number;
  text: string;
  requestId: string | undefined;
  retryAfterMs: number | undefined;
}): ActionDeskError {
  let body: unknown = answer.text;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // Not JSON (a proxy's page): the text is the body.
  }
  const common = {
    status: answer.status,
    operationId: answer.operationId,
    retryAfterMs: answer.retryAfterMs,
    body,
  };
  if (isRecord(body) && typeof body.error === 'string') {
    // `{error, status, details}`, `{error, code, details}` (authentication) or `{error, error_description, code}` (OAuth).
    const oauth = typeof body.error_description === 'string' ? body.error_description : undefined;
    return new ActionDeskError({
      ...common,
      message: oauth ? `${body.error}: ${oauth}` : body.error,
      details: detailsOf(body.details),
      requestId: typeof body.requestId === 'string' ? body.requestId : answer.requestId,
      oauthError: oauth === undefined ? undefined : body.error,
    });
  }
  const excerpt = answer.text.trim().slice(0, 200);
  return new ActionDeskError({
    ...common,
    message: `HTTP ${answer.status}${excerpt ? `: ${excerpt}` : ''}`,
    requestId: answer.requestId,
  });
}
