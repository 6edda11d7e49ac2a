import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/core/db/store.ts';
import { bareGuide } from '../helpers/guide-detail.ts';
import { openTestStore } from '../helpers/store.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// What the views show is asked for apart from the zoom variants (migration 0021): a file stays among what
// the views show once any guide shows it, whoever else needs it for zoom, and whatever made its row.

let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(() => {
  tmp = makeTempDir('media-to-show');
  store = openTestStore(tmp.dir);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

function keep(guideid: number, shows: string[], large: string[], original: string[] = []): void {
  const guide = {
    detail: bareGuide(guideid),
    forms: [],
    quizzes: [],
    searchText: { title: '', summary: '', body: '' },
    mediaUrls: shows,
    zoomUrls: { large, original },
  };
  store.transaction(() => store.guides.storeGuide(guide, 1));
}
const shown = () => store.media.pending(100, 3, 'always').map((row) => row.url);
const large = () => store.media.pending(100, 3, 'large').map((row) => row.url);

describe('the media still to download that the views show', () => {
  it('are the files a guide shows, not the zoom variants, and a file shown by one guide stays shown', () => {
    keep(1, ['p1'], ['p1.large'], ['p1.original']);
    expect(shown()).toEqual(['p1']);
    expect(large()).toEqual(['p1.large']);
    // Another guide shows the first one's large picture (a site serving one file for two sizes).
    keep(2, ['p1.large'], ['p2.large']);
    expect(shown()).toEqual(['p1', 'p1.large']);
    // Stored again with only its zoom reference, the first guide does not take it out of what is shown.
    keep(1, ['p1'], ['p1.large']);
    expect(shown()).toEqual(['p1', 'p1.large']);
  });

  it('keep a file that a guide shows among them when its row is made again for zoom after eviction', () => {
    keep(1, ['p1'], ['p1.large']);
    keep(2, ['p1.large'], []);
    keep(3, ['p3'], ['p3.large']);
    store.transaction(() => {
      store.media.forget('p1.large');
      store.media.forget('p3.large');
    });
    store.transaction(() => store.media.ensureRows('large'));
    expect(shown()).toEqual(['p1', 'p3', 'p1.large']);
    expect(large()).toEqual(['p1.large', 'p3.large']);
  });
});
