/** What every App API method answers: a value, or an error in the technician's words. */

export type ErrorCode =
  | 'offline'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_input'
  | 'invalid_transition'
  | 'server_error'
  | 'storage_full'
  /** The disk cannot be written at all (read-only or failing): nothing more is saved until Fieldguide restarts. */
  | 'storage_failed'
  /** The technician stopped it (a connect cancelled). */
  | 'cancelled'
  | 'internal';

export interface AppError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Every method answers with a Result; thrown errors never cross the process boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
