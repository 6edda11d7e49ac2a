import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, GuideMarkKind, GuideMarks, MyGuides, Result } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/**
 * The current technician's favourites and "done" marks: set here at once (the main process queues them for
 * the site), read again when a sync ends (the site's lists come with it) and when another technician works.
 */
export const useMarksStore = defineStore('marks', () => {
  const bridge = useBridge();
  const favoriteIds = ref<Set<number>>(new Set());
  const byGuide = ref<Record<number, GuideMarks>>({});
  const mine = ref<MyGuides | null>(null);
  const error = ref<AppError | null>(null);
  let loaded = false;

  // A mark waiting to be sent says so until the outbox has sent it: read again after the outbox's news (one read
  // per burst), and after the answer to the press that queued it (the outbox's news of its sending can come
  // first: CI saw the star say "waiting to be sent" 10 s after the site had it). It said so until the next sync
  // ended, 20 s after the site had it (a walk).
  let reread: ReturnType<typeof setTimeout> | undefined;
  function rereadWaiting(): void {
    const waiting = Object.values(byGuide.value).filter((m) => m.waiting.favorite || m.waiting.completed);
    if (waiting.length === 0) return;
    clearTimeout(reread);
    reread = setTimeout(() => void Promise.all(waiting.map((m) => loadGuide(m.guideid))), 150);
  }
  bridge.onEvent((event) => {
    if (event.name === 'syncState' && !event.payload.running && loaded) void refresh();
    else if (event.name === 'outbox') rereadWaiting();
  });

  async function loadFavorites(): Promise<void> {
    const ids = await bridge.listFavoriteGuideIds();
    if (ids.ok) favoriteIds.value = new Set(ids.value);
    loaded = true;
  }

  /**
   * A guide's marks as the main process has them now; its star (favoriteIds) follows them, so a guide page
   * opened first (a reload, a link) shows the star its words say, before any list of favourites is read.
   */
  function keep(guideid: number, marks: GuideMarks): void {
    byGuide.value[guideid] = marks;
    if (favoriteIds.value.has(guideid) === marks.favorite) return;
    const ids = new Set(favoriteIds.value);
    if (marks.favorite) ids.add(guideid);
    else ids.delete(guideid);
    favoriteIds.value = ids;
  }

  async function loadGuide(guideid: number): Promise<void> {
    const marks = await bridge.getGuideMarks(guideid);
    if (marks.ok) keep(guideid, marks.value);
  }

  async function loadMine(): Promise<void> {
    const result = await bridge.getMyGuides();
    if (result.ok) {
      mine.value = result.value;
      // Every favourite of the technician: the stars of My guides (opened first, too) show them.
      favoriteIds.value = new Set(result.value.favorites.map((row) => row.guideid));
      error.value = null;
    } else error.value = result.error;
  }

  async function set(guideid: number, mark: GuideMarkKind, on: boolean): Promise<Result<GuideMarks>> {
    const result = await bridge.setGuideMark(guideid, mark, on);
    if (result.ok) {
      keep(guideid, result.value);
      rereadWaiting();
      if (mine.value) void loadMine();
    }
    return result;
  }

  const opened = (guideid: number): void => void bridge.noteGuideOpened(guideid);

  async function refresh(): Promise<void> {
    await loadFavorites();
    await Promise.all(Object.keys(byGuide.value).map((id) => loadGuide(Number(id))));
    if (mine.value) await loadMine();
  }

  /** Another technician works now: their own marks are read afresh. */
  function forget(): void {
    byGuide.value = {};
    mine.value = null;
    favoriteIds.value = new Set();
    if (loaded) void loadFavorites();
  }

  return { favoriteIds, byGuide, mine, error, loadFavorites, loadGuide, loadMine, set, opened, forget };
});
