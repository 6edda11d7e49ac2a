import { invalid } from './errors.ts';

/** A boolean query parameter: present without a value, `true`/`1` or `false`/`0`; else a 422 naming it. */
export function parseBoolean(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  switch (value.toLowerCase()) {
    case '':
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw invalid(name, 'invalid_value', `${name} must be true or false`);
  }
}

/** A route id: a positive integer, or null when the segment is not one (the caller answers 404). */
export function routeId(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** `%` and `_` match themselves in a LIKE pattern built from user input (with ESCAPE '\'). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
