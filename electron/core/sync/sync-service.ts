import { setMaxListeners } from 'node:events';
import { z } from 'zod';
import type { KeptGuide, SyncError, SyncOutcome, SyncProgress, SyncState } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { DatabaseRepair } from '../../contract.ts';
import { isDamage } from '../db/damage.ts';
import { storageFull } from '../db/disk-space.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import type { LibraryService } from '../library/library-service.ts';
import { cursorKey, LAST_ERROR_KEY, LAST_SYNC_KEY, REFUSED_MEDIA_KEY } from './context.ts';
import { runSync } from './engine.ts';
import { patient } from './patient.ts';
import type { SiteModules } from './site-modules.ts';
import type { SyncContext } from './context.ts';
import { SCOPE_CHOICE_KEY, scopeChoice, scopeWithGuide } from './first-scope.ts';
import { WORKED_GUIDES_KEY } from './worked-guides.ts';
import { keepGuideNow } from './keep-now.ts';
import { keepFrontLaneWarm } from './front-lane.ts';
import { Priority, yielding } from './priority.ts';
import { TellOrder } from '../../shared/told.ts';

const syncErrorSchema = z.object({
  message: z.string(),
  resource: z.string().nullable(),
  at: z.number(),
  mediaOrigin: z.string().optional(),
  wentOn: z.boolean().optional(),
});

export interface SyncServiceDeps {
  store: Store;
  library: LibraryService;
  /** The signed-in transport; throws `unauthorized` when nobody is signed in. */
  transport: () => ApiTransport;
  /** Who syncs (the current technician): an admin's listing holds private guides. */
  reader: () => GuideReader | null;
  /** Requests made so far by the transport (to report what a sync cost). */
  requestCount: () => number;
  events: EventHub;
  onNetworkError: () => void;
  now: () => number;
  /** The site's time as its answers tell it (connection/server-clock.ts), or null before any answer. */
  siteNow: () => number | null;
  concurrency?: { guides: number; media: number };
  /** What the site offers (asked now and then, kept per site). */
  modules: SiteModules;
  /** Whether someone is signed in (a public site is synced without an account: its members' modules are skipped). */
  signedIn: () => boolean;
  /** The last repair of a damaged database (db/data-folder.ts), shown in the sync centre. */
  repair?: () => DatabaseRepair | null;
  /** The technician's favourites and completions (marks/marks-service.ts): read first, favourites kept whole. */
  /**
   * The marks of the technician who works when a sync starts (the sync's transport is theirs): `pullFor`
   * is asked once per sync, so a switch of technician while it runs leaves each one's marks their own.
   */
  marks?: { pullFor: () => NonNullable<SyncContext['marks']>['pull']; kept: () => number[] };
  /** The look at the handed-over sessions of the technician who works when a sync starts (asked once per sync). */
  siteLookFor?: () => NonNullable<SyncContext['siteLook']>;
  /** Told of the guides each commit of a sync stored (SyncContext.guidesStored). */
  guidesStored?: SyncContext['guidesStored'];
  /** Origins the technician allowed media from (connection.ts): no longer offered once allowed. */
  allowedMedia?: () => readonly string[];
}

/** The progress is told at most this often, and the latest of each 100 ms span when the span ends. */
const PROGRESS_EVERY_MS = 100;

/** Pulls the library from the site: one sync at a time, its progress told as events, its state kept. */
export class SyncService {
  #running: { promise: Promise<SyncOutcome>; controller: AbortController } | null = null;
  #progress: SyncProgress = { phase: 'idle', done: 0, total: 0, bytes: 0, message: null };
  #lastEmit = 0;
  #toldLater: NodeJS.Timeout | null = null;
  readonly #priority = new Priority();
  /** The states' order (SyncState.told). */
  readonly #told = new TellOrder();

  constructor(private readonly deps: SyncServiceDeps) {}

  /** Runs a sync, or joins the one running. */
  sync(): Promise<SyncOutcome> {
    if (this.#running) return this.#running.promise;
    const { store, library } = this.deps;
    const controller = new AbortController();
    // One abort listener per request in flight (removed when it ends): up to both lanes' bounds at once.
    setMaxListeners(256, controller.signal);
    // A guide kept now (keep) goes first: the sync asks nothing new of the site meanwhile.
    const own = this.deps.transport();
    const transport = patient(yielding(own, this.#priority), controller.signal);
    const before = this.deps.requestCount();
    // The figures shown are this sync's: nothing carried over from the last one.
    this.#progress = { phase: 'idle', done: 0, total: 0, bytes: 0, message: null };
    const refused = new Set<string>();
    const context = this.#context(transport, controller.signal, (error) => {
      if (error.mediaOrigin) refused.add(error.mediaOrigin);
    });
    const run = () => runSync({ ...context(), frontLane: () => keepFrontLaneWarm(own), priority: this.#priority });
    // A damaged pictures database is found, set aside and made again (library-service.ts): the sync runs
    // once more and downloads its pictures again, rather than asking for a restart that repairs nothing.
    const promise = run()
      .catch((error: unknown) => (isDamage(error) && library.repairPictures() ? run() : Promise.reject(error)))
      .then(({ networkFailed, storageFull: full, ...outcome }): SyncOutcome => {
        // On a full disk the answer is storage_full (what to do), not a sync that merely failed.
        if (full) throw storageFull();
        // What the sync found: the next sync finds it again, so no flush of the disk waits for it.
        store.replaceable(() => {
          if (outcome.error) store.settings.set(LAST_ERROR_KEY, outcome.error);
          else if (outcome.status === 'complete') store.settings.delete(LAST_ERROR_KEY);
          if (outcome.status !== 'cancelled') store.settings.set(REFUSED_MEDIA_KEY, [...refused]);
        });
        if (networkFailed) this.deps.onNetworkError();
        if (outcome.changed > 0) store.settleLibrary();
        return { ...outcome, requests: this.deps.requestCount() - before, failedGuides: store.syncQueue.failures() };
      })
      .finally(() => {
        this.#running = null;
        this.deps.events.emit('syncState', this.state());
      });
    this.#running = { promise, controller };
    this.deps.events.emit('syncState', this.state());
    return promise;
  }

  /**
   * Keeps one guide whole now (keep-now.ts): added to the scope (sync/first-scope.ts), then fetched with
   * its media ahead of the running sync, which waits meanwhile. Offline, the scope keeps it for the next sync.
   */
  async keep(guideid: number): Promise<KeptGuide> {
    const { library, store } = this.deps;
    const scope = scopeWithGuide(store, library.storage.scope(), library.storage.scopeChosen(), guideid);
    if (scope) await library.storage.setScope(scope);
    const controller = new AbortController();
    setMaxListeners(256, controller.signal);
    const release = this.#priority.hold();
    try {
      // On the front lane: the running sync keeps the shared connections busy (front-lane.ts).
      const transport = patient(this.deps.transport().front(), controller.signal);
      // Its figures are not the sync's: the sync's progress stays what it shows.
      const context = { ...this.#context(transport, controller.signal, () => {})(), progress: () => {} };
      const outcome = await keepGuideNow(context, guideid);
      if (outcome.networkFailed) this.deps.onNetworkError();
      if (outcome.stored) store.settleLibrary();
      const { stored, mediaPending, error } = outcome;
      return { guideid, stored, mediaPending, error, state: this.state() };
    } finally {
      release();
      this.deps.events.emit('syncState', this.state());
    }
  }

  cancel(): void {
    this.#running?.controller.abort();
  }

  /** Failed guides (all without `guideids`) are due at once, their count started afresh; then a sync. */
  async retry(guideids?: readonly number[]): Promise<SyncOutcome> {
    await this.idle();
    this.deps.store.syncQueue.retry(guideids, this.deps.now());
    return this.sync();
  }

  /** Resolves once no sync runs (after a cancel, say). */
  async idle(): Promise<void> {
    await this.#running?.promise.catch(() => undefined);
  }

  get running(): boolean {
    return this.#running !== null;
  }

  /** Another site: the running sync stops and the next starts from nothing. */
  reset(): void {
    this.cancel();
    // The guides worked on are the previous site's (its ids mean other guides here).
    const keys = [
      cursorKey(false),
      cursorKey(true),
      LAST_SYNC_KEY,
      LAST_ERROR_KEY,
      SCOPE_CHOICE_KEY,
      WORKED_GUIDES_KEY,
    ];
    for (const key of [...keys, REFUSED_MEDIA_KEY]) this.deps.store.settings.delete(key);
  }

  /** What a sync (or a guide kept now) works with, read afresh at each call (a repaired database, say). */
  #context(transport: ApiTransport, signal: AbortSignal, problem: SyncContext['problem']): () => SyncContext {
    const { store, library, modules } = this.deps;
    const signedIn = this.deps.signedIn();
    const reader = this.deps.reader() ?? { userid: -1, admin: false };
    const marks = this.deps.marks ? { pull: this.deps.marks.pullFor(), kept: this.deps.marks.kept } : null;
    const siteLook = this.deps.siteLookFor?.();
    return () => ({
      store,
      mediaStore: library.mediaStore,
      transport,
      includePrivate: reader.admin,
      reader,
      scope: () => library.storage.scope(),
      scopeChosen: () => library.storage.scopeChosen(),
      budgetBytes: library.storage.disk.mediaBudget(),
      budgetLimitedByDisk: library.storage.disk.room().budgetLimitedTo !== null,
      diskRoom: () => library.storage.disk.free(),
      pictureQuality: library.pictures.quality(),
      pictureQualityChosen: library.pictures.chosen(),
      // The most at once: the lanes fit themselves to the link below it (sync/pool.ts).
      concurrency: this.deps.concurrency ?? { guides: 32, media: 64 },
      signal,
      now: this.deps.now,
      siteNow: this.deps.siteNow,
      progress: (phase, done, total, bytes) =>
        this.#report({ phase, done, total, bytes: bytes ?? this.#progress.bytes, message: null }),
      // The engine gathers its problems; each failed guide is kept in sync_queue and told as failedGuides,
      // each media origin refused for where it leads in the sync centre, to be allowed.
      problem,
      offers: (module) => modules.offers(module, signedIn),
      lacks: (module, status) => modules.lacks(module, status),
      learnModules: (guideid) => modules.refreshIfStale(transport, guideid, signedIn, signal),
      reading: library.languages.reading(),
      // What the site's guides say of its languages, learned again from the next: no flush of the disk for it.
      learnLanguages: (siteDefault, available) =>
        store.replaceable(() => library.languages.learned(siteDefault, available)),
      display: library.display.get(),
      ...(marks ? { marks } : {}),
      ...(siteLook ? { siteLook } : {}),
      ...(this.deps.guidesStored ? { guidesStored: this.deps.guidesStored } : {}),
    });
  }

  state(): SyncState {
    const { store, library } = this.deps;
    return {
      running: this.#running !== null,
      failedGuides: store.syncQueue.failures(),
      progress: this.#progress,
      lastSyncAt: store.settings.get(LAST_SYNC_KEY, z.number()) ?? null,
      lastError: (store.settings.get(LAST_ERROR_KEY, syncErrorSchema) as SyncError | undefined) ?? null,
      scope: library.storage.scope(),
      storage: library.storage.usage(),
      guides: store.guides.count(),
      scopeChoice: scopeChoice(store, library.storage.scopeChosen(), this.deps.reader()),
      repair: this.deps.repair?.() ?? null,
      refusedMediaOrigins: this.#refusedMedia(),
      told: this.#told.next(),
    };
  }

  #refusedMedia(): string[] {
    const allowed = this.deps.allowedMedia?.() ?? [];
    const refused = this.deps.store.settings.get(REFUSED_MEDIA_KEY, z.array(z.string())) ?? [];
    return refused.filter((origin) => !allowed.includes(origin));
  }

  #report(progress: SyncProgress): void {
    this.#progress = progress;
    const now = Date.now();
    const boundary =
      progress.done === 0 ||
      progress.done === progress.total ||
      ['done', 'failed', 'cancelled'].includes(progress.phase);
    if (boundary || now - this.#lastEmit >= PROGRESS_EVERY_MS) {
      this.#tell();
      return;
    }
    // Told when the span ends, the latest then: dropped, the last figures before a guide the site hung on
    // stood for its 40 s ("6 of 14 guides" while 13 were stored).
    this.#toldLater ??= setTimeout(() => this.#tell(), PROGRESS_EVERY_MS - (now - this.#lastEmit));
  }

  #tell(): void {
    if (this.#toldLater) clearTimeout(this.#toldLater);
    this.#toldLater = null;
    this.#lastEmit = Date.now();
    this.deps.events.emit('syncProgress', this.#progress);
  }
}
