import { ApiError, describeResource } from './errors.ts';

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, read as text before it is parsed:
 * `JSON.parse` takes any depth, but what later walks the value (`JSON.stringify` when it is stored, a
 * structured clone to the window) recurses, and a 200,000-level answer ends it with a RangeError. One
 * pass over the characters, skipping strings; text that is not JSON is left to the parser to refuse.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** An answer refused unread because it nests deeper than the request allows. */
export class NestedTooDeepError extends ApiError {}

/** Throws a NestedTooDeepError naming the resource when `text` nests deeper than `limit`. */
export function refuseTooDeep(text: string, limit: number, resource: string, status: number): void {
  if (!nestedDeeperThan(text, limit)) return;
  const answer = describeResource(resource);
  const message = `The site's answer ${answer} is nested deeper than ${limit} levels and was not read.`;
  throw new NestedTooDeepError('bad_response', resource, message, status);
}
