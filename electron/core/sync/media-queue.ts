import type { NeededAt } from '../db/repos/media-repo.ts';
import type { Store } from '../db/store.ts';
import type { Feed } from './pool.ts';

/** What the guides phase tells the media downloader while both run (phases overlap, issue 17). */
export class GuidesProgress {
  #finished = false;
  /** Counts every guide stored and the end: a reader that saw nothing new need not look again until it moves. */
  changes = 0;
  #wake: (() => void) | null = null;
  #next: Promise<void> | null = null;

  get finished(): boolean {
    return this.#finished;
  }

  /** A guide was stored: its media may be downloaded. */
  stored(): void {
    this.changes++;
    this.#wake?.();
  }

  /** No more guides in this sync (stored, failed or stopped). */
  finish(): void {
    this.#finished = true;
    this.changes++;
    this.#wake?.();
  }

  /** Resolves at the next guide stored, or when the phase ends. */
  next(): Promise<void> {
    if (this.#finished) return Promise.resolve();
    this.#next ??= new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#next = null;
        this.#wake = null;
        resolve();
      };
    });
    return this.#next;
  }
}

/** Already finished guides: the media downloader alone (tests, and a sync without a guides phase). */
export const NO_MORE_GUIDES = ((): GuidesProgress => {
  const done = new GuidesProgress();
  done.finish();
  return done;
})();

export interface MediaItem {
  url: string;
  at: NeededAt;
  /** A picture (a library row's, a step's, or a zoom variant), never a page: documents may be pages. */
  picture: boolean;
  /** Its tries that failed so far in this sync (the next sync starts again from none). */
  attempts: number;
}

const PAGE = 500;
const SMALL_PAGE = 16;

/**
 * The media still to download, read from the database as the guides that need them are stored: by rank
 * (media-repo.ts), what the views show (`always`) before the zoom variant `zoom`. A file is handed out
 * once until its outcome is written (`settled`): a download still in flight, or finished but not yet
 * committed, still reads as pending. The zoom variants start once every guide is in and nothing the
 * views show is left or in flight, so a tight budget goes to what the views show first. `eager` (one
 * guide needed now, with room to spare) hands both out at once, in that order: the zoom pictures do not
 * wait a round trip for the step pictures.
 */
export class MediaQueue implements Feed<MediaItem> {
  #buffer: MediaItem[] = [];
  #taken = new Set<string>();
  #inFlight = { always: 0, zoom: 0 };
  #at: NeededAt = 'always';
  /** What was true when the database last had nothing to hand out: until it changes, it is not asked again. */
  #emptyAt: { changes: number; settled: number } | null = null;
  #settled = 0;

  constructor(
    private readonly store: Store,
    private readonly guides: GuidesProgress,
    private readonly zoom: NeededAt | null,
    private readonly maxAttempts: number,
    private readonly stopped: () => boolean,
    /** One guide's media only (a guide the technician needs now: keep-now.ts). */
    private readonly only?: number,
    private readonly eager = false,
  ) {}

  take(): MediaItem | 'wait' | 'end' {
    if (this.stopped()) return 'end';
    if (this.#buffer.length === 0) this.#refill();
    const item = this.#buffer.shift();
    if (item) {
      this.#taken.add(item.url);
      this.#inFlight[item.at === 'always' ? 'always' : 'zoom']++;
      return item;
    }
    if (!this.guides.finished) return 'wait';
    if (this.#at === 'always' && this.zoom && !this.eager && this.#inFlight.always === 0) {
      this.#at = this.zoom;
      this.#emptyAt = null;
      return this.take();
    }
    // Something in flight may fail and be asked again: its end wakes the runner, which asks again.
    return this.#inFlight.always + this.#inFlight.zoom > 0 ? 'wait' : 'end';
  }

  /**
   * Once every guide is in, only a download in flight can bring more (a failure asked again): its end
   * wakes the runner, so this never resolves.
   */
  ready(): Promise<void> {
    return this.guides.finished ? new Promise<void>(() => {}) : this.guides.next();
  }

  /** A download ended (done or failed): the end of its turn. */
  ended(item: MediaItem): void {
    this.#inFlight[item.at === 'always' ? 'always' : 'zoom']--;
  }

  /** Its outcome is in the database: it may be read as pending again (a failure to retry). */
  settled(url: string, failed = false): void {
    this.#taken.delete(url);
    if (failed) this.#settled++;
  }

  #refill(): void {
    // Nothing was there, and since then no guide was stored and no download failed (to be asked again).
    if (this.#emptyAt && this.#emptyAt.changes === this.guides.changes && this.#emptyAt.settled === this.#settled)
      return;
    // Few at a time while guides still arrive: a library picture stored next is not queued behind many videos.
    const page = this.guides.finished ? PAGE : SMALL_PAGE;
    const limit = page + this.#taken.size;
    // Eager: both tiers read at each refill, so a step picture that failed is still asked again.
    const tiers: NeededAt[] = this.eager && this.zoom ? ['always', this.zoom] : [this.#at];
    for (const at of tiers) {
      const rows =
        this.only === undefined
          ? this.store.media.pending(limit, this.maxAttempts, at)
          : this.store.media.pendingOf(this.only, limit, this.maxAttempts, at);
      for (const { url, rank, attempts } of rows) {
        if (!this.#taken.has(url) && this.#buffer.length < page)
          this.#buffer.push({ url, at, picture: rank <= 1 || at !== 'always', attempts });
      }
    }
    this.#emptyAt = this.#buffer.length === 0 ? { changes: this.guides.changes, settled: this.#settled } : null;
  }
}
