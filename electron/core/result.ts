import type { AppError, ErrorCode, Result } from '../contract.ts';

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/**
 * An expected failure raised inside the core and turned into `{ok: false, error}` at the services
 * boundary. Unexpected errors become `internal` there.
 */
export class AppFailure extends Error {
  override readonly name = 'AppFailure';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toAppError(): AppError {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}
