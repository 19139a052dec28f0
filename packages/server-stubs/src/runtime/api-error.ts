import type { ErrorItem } from '@bank-data-sharing/wire';

export interface ApiErrorOptions {
  readonly path?: string;
  readonly url?: string;
  /** Seconds the client must wait; sent as `Retry-After` (used with 429). */
  readonly retryAfter?: number;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/**
 * An error a handler (or a hook) throws to answer with a given status and error envelope.
 * The router writes it in the spec's own shape (e.g. `{ Errors: [{ Code, Message, Path }] }`),
 * signed when the client negotiated `application/jwt`.
 *
 * @example
 * throw new ApiError(403, 'Consent.Invalid', 'The consent does not cover this account');
 * throw new ApiError(429, 'Request.TooManyRequests', 'Slow down', { retryAfter: 30 });
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: readonly ErrorItem[];
  readonly retryAfter: number | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    const item: ErrorItem = {
      code,
      message,
      ...(options.path !== undefined ? { path: options.path } : {}),
      ...(options.url !== undefined ? { url: options.url } : {}),
    };
    this.errors = [item];
    this.retryAfter = options.retryAfter;
    this.headers = options.headers ?? {};
  }

  /**
   * An error with several items (e.g. every invalid field of a request).
   *
   * @example
   * throw ApiError.of(400, [
   *   { code: 'Body.InvalidFormat', message: 'required', path: '$.Data.Status' },
   *   { code: 'Body.InvalidFormat', message: 'too long', path: '$.Data.Reason' },
   * ]);
   */
  static of(status: number, errors: readonly [ErrorItem, ...ErrorItem[]], options: Omit<ApiErrorOptions, 'path' | 'url'> = {}): ApiError {
    const first = errors[0];
    const error = new ApiError(status, first.code, first.message, { ...options, ...(first.path !== undefined ? { path: first.path } : {}) });
    (error as { errors: readonly ErrorItem[] }).errors = errors;
    return error;
  }
}

/** True for an `ApiError`, also one from another copy of this module. */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof ApiError ||
    (value instanceof Error && value.name === 'ApiError' && typeof (value as Partial<ApiError>).status === 'number' && Array.isArray((value as Partial<ApiError>).errors))
  );
}
