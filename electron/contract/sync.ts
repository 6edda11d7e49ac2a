import type { Result } from './result.ts';

/** The App API of the sync: run it, cancel it, its state, and the settings that shape it. */

export interface OfflineScope {
  /** `all`: every guide is kept whole; `selected`: only these categories (and below) and guides. */
  mode: 'all' | 'selected';
  categories: string[];
  guideids: number[];
}

/**
 * Which variant of each step picture is kept for zoom, on top of the thumbnail and standard size the
 * lists and steps show: `standard` nothing more, `large` the site's `<original>.large`, `original` the original.
 */
export type PictureQuality = 'standard' | 'large' | 'original';

export interface PictureQualityOption {
  quality: PictureQuality;
  /** Step pictures of the guides kept offline that this quality adds (0 for `standard`). */
  pictures: number;
  /** How many of them are on this computer already. */
  stored: number;
  /** The room they take, all of them: an estimate (`basis`), null while nothing is known of their size. */
  bytes: number | null;
  /**
   * Where the size comes from: pictures of this quality already
   * kept, sizes the site reported for a few, or nothing yet.
   */
  basis: 'stored' | 'site' | 'unknown';
}

export interface PictureQualityState {
  quality: PictureQuality;
  /** False while the default is kept (no choice made): it takes only the room the budget has. */
  chosen: boolean;
  options: PictureQualityOption[];
  /** The storage budget the media get now, and what they take of it (shown beside the estimates). */
  budgetBytes: number;
  mediaBytes: number;
}

export type SyncPhase =
  'idle' | 'categories' | 'listing' | 'deletions' | 'guides' | 'media' | 'done' | 'failed' | 'cancelled';

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
  bytes: number;
  message: string | null;
}

export interface StorageUsage {
  mediaBytes: number;
  mediaFiles: number;
  pendingMedia: number;
  databaseBytes: number;
  budgetBytes: number;
  /** Free space on the data folder's disk (null when the OS does not say). */
  diskFreeBytes: number | null;
  /** Space the media never take: kept free for the technician's work. */
  reserveBytes: number;
  /** The budget the media get now, when the disk's free space (less the reserve) is below `budgetBytes`; else null. */
  budgetLimitedTo: number | null;
}

/**
 * The database was found damaged at a start, and what was done: the work put back from the work journal,
 * or the file moved aside (never deleted) and the technician's data copied row by row into a fresh one.
 */
export interface DatabaseRepair {
  /**
   * `salvaged`: the damaged file was set aside and the technician's data copied into a fresh one (the
   * library synced again). `log-cut`: the write-ahead log ended part-way through a write (a crash or a full
   * disk while writing); SQLite kept every complete change and dropped the unfinished one, which had not
   * been confirmed; a copy of the log is kept aside (`movedTo`, empty when the disk had no room for it).
   * `restored`: the log or the work's rows were damaged (or the log lost), and the work was put back from
   * the work journal (`restored`); `movedTo` is the copy of a damaged log, or empty.
   */
  kind: 'salvaged' | 'log-cut' | 'restored';
  /** When (unix seconds). */
  at: number;
  /** What was wrong, in words. */
  cause: string;
  /** Where the damaged file was moved (or the cut log copied). */
  movedTo: string;
  /** Rows recovered, by table (technicians, work_sessions, work_values, outbox, conflicts, ...). */
  recovered: Record<string, number>;
  /** Rows put back from the work journal (or removed as it records), by table. */
  restored: Record<string, number>;
  /** Tables, or parts of them, that could not be read: what may be lost (still in the file moved aside). */
  unreadable: string[];
}

export interface SyncError {
  message: string;
  /** What was being fetched or stored, e.g. `GET /guides/12`. */
  resource: string | null;
  at: number;
  /** A media address refused for where it leads: the origin the technician may allow (`allowMediaOrigin`). */
  mediaOrigin?: string;
  /**
   * The sync went on past it (one guide, one picture, the category tree, the quiz list) and stored the
   * rest: it finished with this problem. Absent: it stopped on it (no answer, a refused sign-in).
   */
  wentOn?: boolean;
}

/** A guide the last syncs could not store: named, with the site's own message and when it is tried again. */
export interface FailedGuide {
  guideid: number;
  title: string;
  /** The site's message (or what went wrong reading its answer). */
  message: string;
  /** What was asked, e.g. `GET /guides/12`. */
  resource: string | null;
  attempts: number;
  failedAt: number;
  /** When a sync may try it again (unix seconds, like failedAt); null: not until Retry or a change on the site. */
  nextAttemptAt: number | null;
}

/**
 * A site holds more guides than a first sync takes whole: their summaries are on this computer, and the
 * technician chooses what to keep whole (setOfflineScope, categories show their guide counts) first.
 */
export interface ScopeChoice {
  /** Guides the site lists. */
  guides: number;
  /** The most a first sync downloads whole without asking. */
  limit: number;
  /**
   * The guides the technician worked on (their sessions here, their entries in the site's work log),
   * newest first: kept whole while the choice waits, and kept with the categories chosen.
   */
  worked: number[];
}

export interface SyncState {
  running: boolean;
  /** Guides that could not be stored, most recent failure first. */
  failedGuides: FailedGuide[];
  progress: SyncProgress;
  lastSyncAt: number | null;
  lastError: SyncError | null;
  scope: OfflineScope;
  storage: StorageUsage;
  guides: { total: number; offline: number };
  /** Set while a big site waits for the technician to choose what to keep whole; null otherwise. */
  scopeChoice: ScopeChoice | null;
  /** The last repair of a damaged database, shown in the sync centre; null when there was none. */
  repair: DatabaseRepair | null;
  /**
   * Origins of media the last sync did not fetch for where they lead (another port of this computer, the
   * local network, plain http) and the technician has not allowed (`allowMediaOrigin`).
   */
  refusedMediaOrigins: string[];
  /** Its place among the states the core has made (shared/told.ts): a later one has a greater number. */
  told: number;
}

/** What "Keep offline" did for one guide (keepGuideOffline): kept now, ahead of any running sync. */
export interface KeptGuide {
  guideid: number;
  /** Stored whole on this computer now, its step pictures with it. */
  stored: boolean;
  /** Its media not stored (a failure, told in `error`, or no room); the next sync asks again. */
  mediaPending: number;
  /** Why it is not stored whole now (no network, the site's words); null when it is. */
  error: SyncError | null;
  /** The sync's state after it: the scope names the guide. */
  state: SyncState;
}

export interface SyncOutcome {
  status: 'complete' | 'failed' | 'cancelled';
  changed: number;
  deleted: number;
  mediaDownloaded: number;
  requests: number;
  error: SyncError | null;
  failedGuides: FailedGuide[];
}

export interface SyncApi {
  /** Runs a sync now (or joins the one running) and answers when it ends. Progress comes as events. */
  syncNow(): Promise<Result<SyncOutcome>>;
  cancelSync(): Promise<Result<SyncState>>;
  /** Tries failed guides again at once (all of them without `guideids`), then syncs. */
  retryGuides(guideids?: number[]): Promise<Result<SyncOutcome>>;
  getSyncState(): Promise<Result<SyncState>>;
  setOfflineScope(scope: OfflineScope): Promise<Result<SyncState>>;
  /**
   * Adds one guide to the offline scope and stores it whole at once, ahead of a running sync (its step
   * pictures first); answers when it is stored, or why not (offline: the scope keeps it for the next sync).
   */
  keepGuideOffline(guideid: number): Promise<Result<KeptGuide>>;
  setStorageBudget(bytes: number): Promise<Result<SyncState>>;
  /** The picture quality kept for zoom, with the room each would take (estimates). */
  getPictureQuality(): Promise<Result<PictureQualityState>>;
  /** Chooses the picture quality; a sync then downloads it (within the storage budget). */
  setPictureQuality(quality: PictureQuality): Promise<Result<PictureQualityState>>;
}
