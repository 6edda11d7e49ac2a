import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  AppError,
  KeptGuide,
  OfflineScope,
  PictureQuality,
  PictureQualityState,
  Result,
  SyncOutcome,
  SyncProgress,
  SyncState,
} from '../../electron/contract.ts';
import { madeBefore } from '../../electron/shared/told.ts';
import { useBridge } from '../bridge/index.ts';

const IDLE: SyncProgress = { phase: 'idle', done: 0, total: 0, bytes: 0, message: null };
/**
 * How often the storage figures and guide counts are read again while a sync runs: a phase can last
 * minutes (the pictures of a big library), and its figures beside the live progress must not stand still.
 */
const FIGURES_EVERY_MS = 2_000;

/** The sync: its state from the main process, live progress from events, and the technician's commands. */
export const useSyncStore = defineStore('sync', () => {
  const bridge = useBridge();
  const state = ref<SyncState | null>(null);
  const progress = ref<SyncProgress>(IDLE);
  const lastOutcome = ref<SyncOutcome | null>(null);
  const busy = ref<null | 'sync' | 'cancel' | 'scope' | 'budget' | 'pictures'>(null);
  /** The picture quality kept for zoom and the room each would take (read when the sync centre asks). */
  const pictures = ref<PictureQualityState | null>(null);
  const error = ref<AppError | null>(null);

  const running = computed(() => state.value?.running ?? false);

  let figuresReadAt = 0;
  bridge.onEvent((event) => {
    if (event.name === 'syncProgress') {
      // A new phase, or a while into one: the storage figures and guide counts have moved, read them again.
      const now = Date.now();
      if (event.payload.phase !== progress.value.phase) {
        figuresReadAt = now;
        void load();
      } else if (now - figuresReadAt >= FIGURES_EVERY_MS) {
        figuresReadAt = now;
        void loadFigures();
      }
      progress.value = event.payload;
      if (
        state.value &&
        !state.value.running &&
        !['done', 'failed', 'cancelled', 'idle'].includes(event.payload.phase)
      ) {
        state.value = { ...state.value, running: true };
      }
    } else if (event.name === 'syncState') {
      if (madeBefore(event.payload, state.value)) return;
      state.value = event.payload;
      progress.value = event.payload.progress;
      // A sync that ended has stored (or evicted) pictures: the estimates change with them.
      if (!event.payload.running && pictures.value) void loadPictures();
    }
  });

  /** A state read: not taken over a newer one already told (shared/told.ts: "Syncing…" after the sync ended). */
  function take(result: Result<SyncState>): boolean {
    if (!result.ok) error.value = result.error;
    else if (!madeBefore(result.value, state.value)) {
      state.value = result.value;
      progress.value = result.value.progress;
    }
    return result.ok;
  }

  async function load(): Promise<void> {
    take(await bridge.getSyncState());
  }

  /**
   * The storage figures and guide counts alone: an answer read before the sync ended may arrive after the
   * event saying it did (two connections in the web shell), and must not make it run again on screen.
   */
  async function loadFigures(): Promise<void> {
    const result = await bridge.getSyncState();
    if (result.ok && state.value && !madeBefore(result.value, state.value))
      state.value = { ...state.value, storage: result.value.storage, guides: result.value.guides };
  }

  async function run<T>(kind: NonNullable<typeof busy.value>, call: () => Promise<T>): Promise<T> {
    busy.value = kind;
    error.value = null;
    try {
      return await call();
    } finally {
      busy.value = null;
    }
  }

  /** Starts a sync (or joins the running one); resolves when it ends. */
  async function syncNow(): Promise<SyncOutcome | null> {
    error.value = null;
    if (state.value) state.value = { ...state.value, running: true };
    const result = await bridge.syncNow();
    await load();
    if (!result.ok) {
      error.value = result.error;
      return null;
    }
    lastOutcome.value = result.value;
    return result.value;
  }

  /** Tries failed guides again at once (all without `guideids`); resolves when that sync ends. */
  async function retryGuides(guideids?: number[]): Promise<void> {
    error.value = null;
    const result = guideids ? await bridge.retryGuides(guideids) : await bridge.retryGuides();
    await load();
    if (result.ok) lastOutcome.value = result.value;
    else error.value = result.error;
  }

  /** Keeps one guide whole now, ahead of a running sync; resolves with what was kept (null: refused). */
  async function keepGuide(guideid: number): Promise<KeptGuide | null> {
    error.value = null;
    const result = await bridge.keepGuideOffline(guideid);
    if (!result.ok) {
      error.value = result.error;
      return null;
    }
    if (!madeBefore(result.value.state, state.value)) state.value = result.value.state;
    return result.value;
  }

  async function loadPictures(): Promise<void> {
    const result = await bridge.getPictureQuality();
    if (result.ok) pictures.value = result.value;
    else error.value = result.error;
  }

  /** Chooses the picture quality; the main process then syncs to download it (within the budget). */
  const setPictureQuality = (quality: PictureQuality) =>
    run('pictures', async () => {
      const result = await bridge.setPictureQuality(quality);
      if (result.ok) pictures.value = result.value;
      else error.value = result.error;
      await load();
    });

  /**
   * Media of the site may come from `origin` too (another port here, the local network, plain http): the
   * technician said it is the site's own media server. A sync then fetches what was refused.
   */
  async function allowMediaOrigin(origin: string): Promise<void> {
    error.value = null;
    const result = await bridge.allowMediaOrigin(origin);
    if (!result.ok) {
      error.value = result.error;
      return;
    }
    await syncNow();
  }

  const cancel = () => run('cancel', async () => take(await bridge.cancelSync()));
  const setScope = (scope: OfflineScope) => run('scope', async () => take(await bridge.setOfflineScope(scope)));
  /** The budget set; the picture qualities' card says it beside their estimates: read again with it. */
  const setBudget = (bytes: number) =>
    run('budget', async () => {
      const ok = take(await bridge.setStorageBudget(bytes));
      if (ok && pictures.value) await loadPictures();
      return ok;
    });

  return {
    state,
    progress,
    lastOutcome,
    busy,
    error,
    running,
    pictures,
    load,
    loadPictures,
    syncNow,
    retryGuides,
    keepGuide,
    allowMediaOrigin,
    cancel,
    setScope,
    setBudget,
    setPictureQuality,
  };
});
