/** Where a problem was found: a part of the request, or the current state of what it targets (409). */
export type ProblemLocation = 'path' | 'query' | 'body' | 'header' | 'state';

/**
 * The one shape of `details` in every error body: one entry per problem. A 409 names the state it found
 * (`in: 'state'`, `field: 'status'`, `value: 'completed'`); a name already taken names the holder's id.
 */
export interface FieldError {
  field: string;
  in: ProblemLocation;
  message: string;
  /** The value found, when it helps: the current status, the id of the record holding a name. */
  value?: string;
}

/** Base of every error a service may throw; the error middleware turns it into the spec's bodies. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: FieldError[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** Authentication and authorisation failures use `{success,error,code}`; the rest `{success,error,status}`. */
  get isAuthFailure(): boolean {
    return false;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super(400, message, details);
  }

  static field(field: string, message: string, location: ProblemLocation = 'body'): BadRequest {
    return new BadRequest(`${field}: ${message}`, [{ field, in: location, message }]);
  }
}

export class Unauthenticated extends AppError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, message);
  }

  override get isAuthFailure(): boolean {
    return true;
  }
}

/** A bearer token that is unknown, expired or revoked (RFC 6750 `invalid_token`). */
export class InvalidToken extends Unauthenticated {
  get wwwAuthenticate(): string {
    return `Bearer error="invalid_token", error_description="${this.message.replace(/["\\]/g, '')}"`;
  }
}

export class Forbidden extends AppError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }

  override get isAuthFailure(): boolean {
    return true;
  }
}

/** A bearer token whose scope lacks what the route needs (RFC 6750 `insufficient_scope`). */
export class InsufficientScope extends Forbidden {
  constructor(readonly scope: string) {
    super(`The token's scope does not include '${scope}', which this route needs`);
  }
  get wwwAuthenticate(): string {
    return `Bearer error="insufficient_scope", scope="${this.scope}"`;
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

/** The target existed but can no longer be used (expired, used up). */
export class Gone extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, details?: FieldError[]) {
    super(409, message, details);
  }

  /** The target is in a state that does not allow the operation; `details` says which state. */
  static state(message: string, field: string, value: string): Conflict {
    return new Conflict(message, [{ field, in: 'state', message: `is ${value}`, value }]);
  }
}

export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

export class ServiceUnavailable extends AppError {
  constructor(message = 'The database is not available; try again shortly', options?: { cause?: unknown }) {
    super(503, message, undefined, options);
  }
}

export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
