import { invalid } from './errors.ts';

export type Order = 'ASC' | 'DESC';

export interface Paging {
  offset: number;
  limit: number;
  order: Order;
}

/** What a route reads from the query string; `c.req.query()` fits. */
export type QueryGetter = (name: string) => string | undefined;

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 20;

const INTEGER = /^[+-]?\d+$/;

/** An integer query or route parameter in [min, max]; anything else is a 422 naming it. */
export function parseInteger(
  value: string | undefined,
  name: string,
  range: { min?: number; max?: number } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  const number = INTEGER.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const bounds =
      max === Number.MAX_SAFE_INTEGER
        ? `${min} or greater`
        : min === Number.MIN_SAFE_INTEGER
          ? `at most ${max}`
          : `from ${min} to ${max}`;
    throw invalid(name, 'invalid_value', `${name} must be an integer ${bounds}`);
  }
  return number;
}

export function parseOrder(value: string | undefined, fallback: Order = 'ASC', name = 'order'): Order {
  if (value === undefined) return fallback;
  const upper = value.toUpperCase();
  if (upper === 'ASC' || upper === 'DESC') return upper;
  throw invalid(name, 'invalid_value', `${name} must be ASC or DESC`);
}

/** offset >= 0 (default 0), limit 1..200 (default 20), order ASC/DESC (reference 2.1, DESIGN.md §7). */
export function parsePaging(query: QueryGetter, defaults: { order?: Order; limit?: number } = {}): Paging {
  return {
    offset: parseInteger(query('offset'), 'offset', { min: 0 }) ?? 0,
    limit: parseInteger(query('limit'), 'limit', { min: 1, max: MAX_LIMIT }) ?? defaults.limit ?? DEFAULT_LIMIT,
    order: parseOrder(query('order'), defaults.order),
  };
}

/** The paged "search-style" object of reference 2.1. `results` is the page already cut. */
export interface PagedResult<T> {
  limit: number;
  offset: number;
  totalResults: number;
  moreResults: boolean;
  search: string;
  results: T[];
}

export function pagedResult<T>(
  results: T[],
  totalResults: number,
  paging: Pick<Paging, 'limit' | 'offset'>,
  search: string,
): PagedResult<T> {
  return {
    limit: paging.limit,
    offset: paging.offset,
    totalResults,
    moreResults: paging.offset + results.length < totalResults,
    search,
    results,
  };
}

/** Cuts a page out of a list held in memory (for small lists ranked in code). */
export function slicePage<T>(items: readonly T[], paging: Pick<Paging, 'limit' | 'offset'>): T[] {
  return items.slice(paging.offset, paging.offset + paging.limit);
}
