import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  AppError,
  CategoryNode,
  GuideListItem,
  LibraryQuery,
  SearchResults,
  TagCount,
} from '../../electron/contract.ts';
import { LIST_MAX } from '../../electron/shared/limits.ts';
import { listPicture } from '../../electron/shared/media.ts';
import { useBridge } from '../bridge/index.ts';
import { pagesCovering } from '../lib/paging.ts';

export const LIBRARY_PAGE_SIZE = 200;
/**
 * While media download, the rows on screen are read again at most this often (when some still wait for their picture).
 */
const PICTURE_REFRESH_MS = 600;

export interface LibraryFilter {
  category: string | null;
  type: string | null;
  tag: string;
  offlineOnly: boolean;
}

/**
 * The guide library as the list shows it: the category tree, the filter, and the rows fetched page by
 * page as the (virtualised) list scrolls. Rows are a sparse array the length of the whole result, so the
 * scroll bar is right from the first page and only the pages on screen are ever asked for.
 */
export const useLibraryStore = defineStore('library', () => {
  const bridge = useBridge();
  const categories = ref<CategoryNode[]>([]);
  const tags = ref<TagCount[]>([]);
  const filter = ref<LibraryFilter>({ category: null, type: null, tag: '', offlineOnly: false });
  const total = ref(0);
  const rows = shallowRef<(GuideListItem | undefined)[]>([]);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<AppError | null>(null);

  // Each reload starts a generation; answers for an older one are dropped (the filter changed meanwhile).
  let generation = 0;
  const pages = new Map<number, Promise<void> | 'done'>();

  const query = computed((): LibraryQuery => {
    const { category, type, tag, offlineOnly } = filter.value;
    return {
      ...(category ? { category } : {}),
      ...(type ? { type } : {}),
      ...(tag.trim() ? { tag: tag.trim() } : {}),
      ...(offlineOnly ? { offlineOnly: true } : {}),
    };
  });

  async function loadCategories(): Promise<void> {
    const [tree, tagList] = await Promise.all([bridge.getCategories(), bridge.listTags()]);
    if (tree.ok) categories.value = tree.value;
    else error.value = tree.error;
    // The tag filter's suggestions: without them the filter still takes typed text.
    if (tagList.ok) tags.value = tagList.value;
  }

  function fetchPage(page: number, gen: number): Promise<void> {
    const promise = (async () => {
      const result = await bridge.listGuides({
        ...query.value,
        offset: page * LIBRARY_PAGE_SIZE,
        limit: LIBRARY_PAGE_SIZE,
      });
      if (gen !== generation) return;
      if (!result.ok) {
        pages.delete(page);
        error.value = result.error;
        return;
      }
      if (result.value.total !== rows.value.length) {
        // The library changed under the list (a sync ran): pages no longer line up, start again.
        void reload();
        return;
      }
      pages.set(page, 'done');
      const next = rows.value.slice();
      result.value.items.forEach((item, index) => (next[page * LIBRARY_PAGE_SIZE + index] = item));
      rows.value = next;
    })();
    pages.set(page, promise);
    return promise;
  }

  /**
   * Reads the list again from the first page (after a filter change or a sync). The rows on screen stay
   * until the new answer arrives, so a refresh never blanks the list.
   */
  async function reload(): Promise<void> {
    const gen = ++generation;
    pages.clear();
    loading.value = true;
    error.value = null;
    try {
      const result = await bridge.listGuides({ ...query.value, offset: 0, limit: LIBRARY_PAGE_SIZE });
      if (gen !== generation) return;
      if (!result.ok) {
        error.value = result.error;
        return;
      }
      const next = new Array<GuideListItem | undefined>(result.value.total);
      result.value.items.forEach((item, index) => (next[index] = item));
      pages.set(0, 'done');
      total.value = result.value.total;
      rows.value = next;
      loaded.value = true;
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /** Makes sure rows `start`..`end` are fetched (the virtual list calls it with what is on screen). */
  async function ensureRange(start: number, end: number): Promise<void> {
    const gen = generation;
    const waits: Promise<void>[] = [];
    for (const page of pagesCovering(start, Math.min(end, total.value - 1), LIBRARY_PAGE_SIZE)) {
      const known = pages.get(page);
      if (known === 'done') continue;
      waits.push(known ?? fetchPage(page, gen));
    }
    await Promise.all(waits);
  }

  async function refresh(): Promise<void> {
    await Promise.all([loadCategories(), reload()]);
  }

  function setFilter(patch: Partial<LibraryFilter>): Promise<void> {
    filter.value = { ...filter.value, ...patch };
    return reload();
  }

  function clearFilter(): Promise<void> {
    return setFilter({ category: null, type: null, tag: '', offlineOnly: false });
  }

  /** Guides on this computer matching `text` (the local index, whatever the network), for pickers. */
  async function findLocal(text: string, limit = 8): Promise<SearchResults['items']> {
    const result = await bridge.search({ text, where: 'local', limit });
    return result.ok ? result.value.items : [];
  }

  /** Titles of guides in the library, summaries included (the listing gives every guide its title). */
  async function titlesOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const result = await bridge.listGuides({ guideids: [...ids], limit: Math.min(LIST_MAX, ids.length) });
    return new Map(result.ok ? result.value.items.map((guide) => [guide.guideid, guide.title] as const) : []);
  }

  // The rows on screen, as the virtual list last drew them: the ones read again as pictures land.
  let visible: [number, number] = [0, -1];
  function setVisible(start: number, end: number): void {
    visible = [start, end];
  }

  /** A row drawn before its list picture arrived (a plain tile until then). */
  const waitsForPicture = (row: GuideListItem | undefined): boolean =>
    row !== undefined && !row.thumbnailStored && listPicture(row.image) !== undefined;

  /** Reads the rows on screen again when some still wait for their picture: their thumbnails appear as they land. */
  async function refreshPictures(): Promise<void> {
    const [start, end] = [visible[0], Math.min(visible[1], total.value - 1)];
    if (end < start || !rows.value.slice(start, end + 1).some(waitsForPicture)) return;
    const gen = generation;
    const result = await bridge.listGuides({
      ...query.value,
      offset: start,
      limit: Math.min(LIST_MAX, end - start + 1),
    });
    if (gen !== generation || !result.ok) return;
    if (result.value.total !== rows.value.length) {
      void reload();
      return;
    }
    const next = rows.value.slice();
    result.value.items.forEach((item, index) => (next[start + index] = item));
    rows.value = next;
  }

  let pictureTimer: ReturnType<typeof setTimeout> | null = null;
  function refreshPicturesSoon(): void {
    if (pictureTimer) return;
    pictureTimer = setTimeout(() => {
      pictureTimer = null;
      void refreshPictures();
    }, PICTURE_REFRESH_MS);
  }

  // A sync changes the library: read it again when one ends, and when a sync's guides phase starts
  // (the summaries are stored by then), so a first sync fills the list while media still download; as
  // media land, the rows on screen that wait for their picture are read again.
  let lastPhase: string | null = null;
  bridge.onEvent((event) => {
    if (!loaded.value) return;
    if (event.name === 'syncState' && !event.payload.running) void refresh();
    else if (event.name === 'syncProgress') {
      if (event.payload.phase !== lastPhase) {
        lastPhase = event.payload.phase;
        if (lastPhase === 'guides' || lastPhase === 'media') void refresh();
      } else if (lastPhase === 'media') refreshPicturesSoon();
    }
  });

  /** Another technician works now: what they may read differs (private guides), so the list is read again. */
  function forget(): void {
    if (loaded.value) void refresh();
    else {
      categories.value = [];
      tags.value = [];
    }
  }

  return {
    forget,
    categories,
    tags,
    filter,
    total,
    rows,
    loading,
    loaded,
    error,
    query,
    loadCategories,
    reload,
    ensureRange,
    setVisible,
    refresh,
    setFilter,
    clearFilter,
    findLocal,
    titlesOf,
  };
});
