import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/core/db/store.ts';
import { SEARCH_COUNT_CAP } from '../../electron/core/db/repos/search-repo.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// A search matching more guides than it counts ranks a pool of them (search-repo.ts): those with every
// word in the title come first whatever their id, and paging through the pool shows each guide once.

const tmp = makeTempDir('search-ranking');
let store: Store;
const TITLED = 30;
const GUIDES = 1500;

beforeAll(() => {
  store = openTestStore(tmp.dir);
  store.transaction(() => {
    for (let guideid = 1; guideid <= GUIDES; guideid++) {
      // The last ones (the highest ids, read last) say "valve" in their title; the others in their summary.
      const titled = guideid > GUIDES - TITLED;
      store.guides.upsertSummary({
        guideid,
        revisionid: 1,
        title: titled ? `Replace the relief valve ${guideid}` : `Replace the drive belt ${guideid}`,
        category: 'Compressors',
        subject: '',
        type: 'replacement',
        summary: titled ? 'Step by step.' : 'Check the relief valve first.',
        flags: [],
        image: null,
        public: guideid % 10 !== 0,
        authorUserid: 1,
        modifiedDate: 1_700_000_000 + guideid,
      });
    }
  });
});

afterAll(() => {
  store.close();
  tmp.remove();
});

describe('a search matching more than it counts', () => {
  const reader = { userid: 2, admin: false };

  it('ranks the guides with the words in their title first', () => {
    const found = store.search.search('relief val', 20, 0, reader);
    expect(found.total).toBe(SEARCH_COUNT_CAP);
    expect(found.items.every((g) => g.title.includes('valve'))).toBe(true);
    const next = store.search.search('relief val', 20, 20, reader);
    expect(next.items.slice(0, TITLED - 20 - TITLED / 10).every((g) => g.title.includes('valve'))).toBe(true);
  });

  it('pages through the counted results once each, readable ones only', () => {
    const seen: number[] = [];
    for (let offset = 0; offset < SEARCH_COUNT_CAP + 50; offset += 50)
      seen.push(...store.search.search('valve', 50, offset, reader).items.map((g) => g.guideid));
    expect(seen).toHaveLength(SEARCH_COUNT_CAP);
    expect(new Set(seen).size).toBe(SEARCH_COUNT_CAP);
    expect(seen.filter((id) => id % 10 === 0)).toEqual([]);
  });

  it('ranks every match when they are fewer than it counts', () => {
    const found = store.search.search('valve 1491', 20, 0, reader);
    expect(found).toMatchObject({ total: 1, items: [{ guideid: 1491 }] });
    const belts = store.search.search('belt 14', 200, 0, reader);
    expect(belts.total).toBeLessThan(SEARCH_COUNT_CAP);
    expect(belts.items).toHaveLength(belts.total);
  });
});
