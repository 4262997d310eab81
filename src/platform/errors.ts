export interface FieldError {
  field: string;
  message: string;
}

/** Base of every error a service may throw; the error middleware turns it into the spec's bodies. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: FieldError[] | Record<string, unknown>,
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

  static field(field: string, message: string): BadRequest {
    return new BadRequest(`${field}: ${message}`, [{ field, message }]);
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

export class Forbidden extends AppError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }

  override get isAuthFailure(): boolean {
    return true;
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(409, message, details);
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
