import { expect } from 'vitest';
import { expectError, type CallResult } from './helpers.ts';

type Query = Record<string, string | number | undefined>;

/**
 * Reference 2.1 and 8 on a list endpoint: limit 1 and 200, offset past the end, `order` both ways
 * (when `ordered`), and 422 naming the parameter for limit 0, 201 and a negative offset.
 * `items` reads the list out of an answer (the body itself, or its `results`). Returns the full list.
 */
export async function checkPaging<T>(
  get: (query: Query) => Promise<CallResult>,
  options: { items?: (body: any) => T[]; key: (item: T) => number | string; ordered?: boolean; total: number },
): Promise<T[]> {
  const items = options.items ?? ((body: any) => body as T[]);
  const all = await get({ limit: 200 });
  expect(all.status, all.text).toBe(200);
  const everything = items(all.body);
  expect(everything).toHaveLength(Math.min(200, options.total));
  const keys = everything.map(options.key);
  if (options.ordered !== false) expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

  const first = await get({ limit: 1 });
  expect(items(first.body).map(options.key)).toEqual(keys.slice(0, 1));
  const second = await get({ limit: 1, offset: 1 });
  expect(items(second.body).map(options.key)).toEqual(keys.slice(1, 2));
  const past = await get({ offset: options.total + 5 });
  expect(past.status).toBe(200);
  expect(items(past.body)).toEqual([]);
  if (options.ordered !== false) {
    const desc = await get({ limit: 200, order: 'DESC' });
    expect(items(desc.body).map(options.key)).toEqual([...keys].reverse());
    expectError(await get({ order: 'SIDEWAYS' }), 422, 'order');
  }
  expectError(await get({ limit: 0 }), 422, 'limit');
  expectError(await get({ limit: 201 }), 422, 'limit');
  expectError(await get({ offset: -1 }), 422, 'offset');
  return everything;
}

/** The paged object of reference 2.1: `moreResults` true while items remain, false on the last page. */
export async function checkMoreResults(get: (query: Query) => Promise<CallResult>, total: number): Promise<void> {
  expect(total).toBeGreaterThan(1);
  const first = await get({ limit: 1 });
  expect(first.body).toMatchObject({ limit: 1, offset: 0, totalResults: total, moreResults: true });
  const last = await get({ limit: 1, offset: total - 1 });
  expect(last.body).toMatchObject({ limit: 1, offset: total - 1, totalResults: total, moreResults: false });
  expect(last.body.results).toHaveLength(1);
  const past = await get({ limit: 200, offset: total });
  expect(past.body).toMatchObject({ totalResults: total, moreResults: false, results: [] });
}
