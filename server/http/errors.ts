import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One entry of `errors` in an error body (DESIGN.md §7). */
export interface ErrorDetail {
  field?: string;
  code?: string;
  message: string;
}

/**
 * An expected failure of a request, thrown from a handler and rendered by `renderError`. `body` replaces
 * the usual `{message, errors}` body where the reference fixes it (409: the current resource).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: readonly ErrorDetail[],
    readonly body?: unknown,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

export const invalidJson = (): HttpError => new HttpError(400, 'Invalid JSON in the request body');

export const unauthorized = (message = 'Authentication required'): HttpError => new HttpError(401, message);

export const forbidden = (message = 'You do not have permission to do that'): HttpError => new HttpError(403, message);

export const notFound = (message = 'Not found'): HttpError => new HttpError(404, message);

export const methodNotAllowed = (method: string, allow: readonly string[]): HttpError =>
  new HttpError(405, `Method ${method} is not allowed here`, undefined, undefined, { Allow: allow.join(', ') });

/** 409: the body is the current version of the resource (reference §9). */
export const conflict = (current: unknown): HttpError =>
  new HttpError(409, 'The revisionid given differs from the current one', undefined, current);

export type InvalidCode = 'missing_field' | 'invalid_value' | (string & {});

/** 422 naming one field. */
export const invalid = (field: string, code: InvalidCode, message: string): HttpError =>
  new HttpError(422, message, [{ field, code, message }]);

export const missingField = (field: string): HttpError => invalid(field, 'missing_field', `${field} is required`);

/** 422 with several problems at once; the message is the first one's. */
export const invalidMany = (errors: readonly ErrorDetail[]): HttpError =>
  new HttpError(422, errors[0]?.message ?? 'Invalid request', errors);

/**
 * An error body in the site's dialect (http/dialects.ts): the seed's `{message, errors?}`, or iFixit's
 * `{error: true, message}`.
 */
function errorBody(c: Context, message: string, errors?: readonly ErrorDetail[]): object {
  if (c.get('dialect') === 'ifixit') return { error: true, message };
  return { message, ...(errors ? { errors } : {}) };
}

export function renderError(error: unknown, c: Context): Response {
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    if (error.body !== undefined) return c.json(error.body as object, error.status);
    return c.json(errorBody(c, error.message, error.errors), error.status);
  }
  // Never a stack or an internal message on the wire; the log keeps it for whoever runs the server.
  console.error('reference server: unexpected error', error);
  return c.json(errorBody(c, 'Internal server error'), 500);
}
