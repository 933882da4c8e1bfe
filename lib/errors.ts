// The one error type. Codes are a closed set; each maps to an HTTP status.
export const errorStatus = {
  bad_request: 400,
  validation_failed: 422,
  question_too_long: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  turn_in_progress: 409,
  email_taken: 409,
  last_admin: 409,
  self_action: 409,
  account_disabled: 403,
  wrong_password: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  csrf: 403,
  registration_closed: 403,
  invalid_invite: 403,
  rate_limited: 429,
  model_error: 502,
  model_timeout: 504,
  storage_error: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; details?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.name = "AppError";
    this.status = errorStatus[code];
    this.details = options?.details;
  }
  readonly details: unknown;

  toJSON() {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
