import type { OfflineScope, PictureQuality, SiteModule, SyncError, SyncPhase } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { MediaStore } from '../library/media-store.ts';
import type { Priority } from './priority.ts';

/** What every phase of a sync works with. */
export interface SyncContext {
  store: Store;
  mediaStore: MediaStore;
  transport: ApiTransport;
  includePrivate: boolean;
  /** Who syncs: guides they may not read (a private guide an admin synced) are left as they are. */
  reader: GuideReader;
  /** The scope as it is now: read when the sync plans, so a guide kept meanwhile is not dropped. */
  scope: () => OfflineScope;
  /** Whether the technician ever chose a scope (a big site's first sync waits for that choice). */
  scopeChosen: () => boolean;
  budgetBytes: number;
  /** Bytes the disk can still take above the reserve kept for the technician's work (none when unknown). */
  diskRoom?: () => number;
  /** The budget was shrunk to what the disk has beyond the reserve (library/budget.ts). */
  budgetLimitedByDisk?: boolean;
  /** The zoom variant of step pictures kept on top of what the views show. */
  pictureQuality: PictureQuality;
  /** False while the default quality is kept: its zoom pictures take only the room the budget has. */
  pictureQualityChosen?: boolean;
  concurrency: { guides: number; media: number };
  signal: AbortSignal;
  now: () => number;
  /** The site's time (unix seconds) as its answers tell it, or null before any answer. */
  siteNow: () => number | null;
  progress: (phase: SyncPhase, done: number, total: number, bytes?: number) => void;
  /** Records a failure that does not stop the other items; the sync ends `failed` with the first one. */
  problem: (error: SyncError) => void;
  /** Whether the sync asks for a module (the site did not say it lacks it: sync/site-modules.ts). */
  offers: (module: SiteModule) => boolean;
  /** The site answered a module's part as lacking it (404, 403, 405, 501). */
  lacks: (module: SiteModule, status: number) => void;
  /** Asks the site which modules it offers when what is known is old (a guide it lists helps ask). */
  learnModules: (guideid: number | null) => Promise<void>;
  /** The language the syncing technician reads in, when it is not the site's own: guides are also kept in it. */
  reading?: string | null;
  /** What the stored guides told of the site's languages: its own, and those guides can be read in. */
  learnLanguages?: (siteDefault: string | null, available: readonly string[]) => void;
  /**
   * The syncing technician's own marks (favourites, completions): read from the site first, and the guides
   * anyone here holds as a favourite kept whole whatever the scope, fetched before the others.
   */
  marks?: { pull: (transport: ApiTransport, signal: AbortSignal) => Promise<void>; kept: () => number[] };
  /**
   * Looks at the syncing technician's sessions handed over or running with nothing of theirs queued: one list
   * of the site's handed-over entries and a read of each gone from it, one list of their own newest entries
   * (worklog/site-look.ts).
   */
  siteLook?: (transport: ApiTransport, signal: AbortSignal) => Promise<void>;
  /**
   * Keeps the technician's own connections to the site open while the sync fills the shared ones
   * (front-lane.ts); returns the stop. Absent for a guide kept now (it is the technician's request).
   */
  frontLane?: () => () => void;
  /**
   * Whether, and how many times so far, a guide kept now has held the sync (priority.ts): a request made
   * across a hold waited for it, and its time tells the lanes nothing of the link (unheldTime). The sync's
   * commits wait for the hold to end too (`clear`): the guide's answers are handled first on this thread.
   */
  priority?: Pick<Priority, 'holds' | 'held' | 'clear'>;
  /**
   * Told of the guides a commit stored: a session open on screen of one the site revised learns of it then,
   * not at its next change (worklog.ts, guidesStored).
   */
  guidesStored?: (guideids: readonly number[]) => void;
  /** The screen the videos are kept for (shared/media.ts, fittingEncoding); null: not told yet. */
  display?: { width: number; height: number } | null;
}

export const CURSOR_KEY = 'sync.cursor';
/**
 * An admin's listing holds private guides, a technician's does not: each has its own cursor, so an
 * admin's first sync after technicians' ones still lists the private guides changed before their cursor.
 */
export const cursorKey = (includePrivate: boolean): string => (includePrivate ? `${CURSOR_KEY}.private` : CURSOR_KEY);
export const LAST_SYNC_KEY = 'sync.lastSyncAt';
export const LAST_ERROR_KEY = 'sync.lastError';
/** Origins of media the last sync did not fetch for where they lead (api/media-hosts.ts). */
export const REFUSED_MEDIA_KEY = 'sync.refusedMedia';
