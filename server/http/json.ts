import type { Context } from 'hono';
import type { z } from 'zod';
import { MAX_JSON_BODY, readBodyBytes } from './body.ts';
import type { AppEnv } from './env.ts';
import { HttpError, invalid, invalidJson, invalidMany, type ErrorDetail } from './errors.ts';

/**
 * The request body parsed as JSON. An empty body counts as `{}`, so a body-less POST gets a 422 naming the
 * first missing field instead of a 400. Text that is not JSON is a 400 (reference §7). A body over
 * `MAX_JSON_BODY` is a 413, refused before it is read when its Content-Length says so.
 */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyBytes(c, MAX_JSON_BODY));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJson();
  }
}

export async function readJsonObject(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('body', 'invalid_value', 'The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * Parses the body with a zod object schema. Each problem becomes an `errors` entry naming its field
 * (`stages[0].num_required`) with code `missing_field` when the value is absent, else `invalid_value`.
 */
export async function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  return validate(await readJsonObject(c), schema);
}

export function validate<S extends z.ZodType>(body: unknown, schema: S): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors: ErrorDetail[] = result.error.issues.map((issue) => {
    const field = fieldName(issue.path);
    const missing = valueAt(body, issue.path) === undefined;
    return missing
      ? { field, code: 'missing_field', message: `${field} is required` }
      : { field, code: 'invalid_value', message: `${field}: ${issue.message}` };
  });
  throw errors.length ? invalidMany(errors) : new HttpError(422, 'Invalid request body');
}

function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const key of path) name += typeof key === 'number' ? `[${key}]` : name ? `.${String(key)}` : String(key);
  return name || 'body';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
