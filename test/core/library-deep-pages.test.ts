import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/core/db/store.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// A page deep in the list starts after a mark, the row before each thousandth (library-pages.ts): it
// shows the same guides as skipping rows from the first one, whatever the titles' case and ties, and
// the marks are found again once the library changed.

const tmp = makeTempDir('deep-pages');
let store: Store;
const reader = { userid: 2, admin: false };

const summary = (guideid: number, title: string) => ({
  guideid,
  revisionid: 1,
  title,
  category: guideid % 3 ? 'Compressors' : 'Forklifts',
  subject: '',
  type: guideid % 2 ? 'repair' : 'replacement',
  summary: '',
  flags: [],
  image: null,
  public: guideid % 7 !== 0,
  authorUserid: 1,
  modifiedDate: 1_700_000_000 + guideid,
});

beforeAll(() => {
  store = openTestStore(tmp.dir);
  // Few distinct titles, in both cases: many ties, broken by guideid.
  store.transaction(() => {
    for (let guideid = 1; guideid <= 4200; guideid++) {
      const title = `${guideid % 2 ? 'replace' : 'Replace'} the belt ${(guideid * 7919) % 37}`;
      store.guides.upsertSummary(summary(guideid, title));
    }
  });
});

afterAll(() => {
  store.close();
  tmp.remove();
});

/** Every guide of a list, in one page from the first row (no mark). */
const whole = (query: { type?: string }, categories: string[] | null) =>
  store.guides.list({ ...query, limit: 10_000 }, categories, reader).items.map((g) => g.guideid);
const page = (offset: number, query: { type?: string } = {}, categories: string[] | null = null) =>
  store.guides.list({ ...query, offset, limit: 50 }, categories, reader).items.map((g) => g.guideid);

describe('pages deep in the list', () => {
  it('are the rows skipping from the first one would give, around each mark, filtered or not', () => {
    const lists: [{ type?: string }, string[] | null][] = [
      [{}, null],
      [{ type: 'repair' }, null],
      [{}, ['Compressors']],
    ];
    for (const [query, categories] of lists) {
      const all = whole(query, categories);
      expect(all.length).toBeGreaterThan(1000);
      for (const offset of [3100, 999, 1000, 1001, 1950, 2000, 2999, all.length - 20, all.length, all.length + 500]) {
        expect(page(offset, query, categories), `offset ${offset}`).toEqual(all.slice(offset, offset + 50));
      }
    }
  });

  it('move when a guide is added before them', () => {
    const before = page(2000);
    store.guides.upsertSummary(summary(9000, 'Adjust the belt'));
    expect(page(2001)).toEqual(before);
    expect(page(2000)).toEqual(whole({}, null).slice(2000, 2050));
  });
});
