import type { SyncError, SyncPhase, SyncProgress, SyncState } from '../../electron/contract.ts';
import { formatBytes } from './format.ts';

const PHASE_WORDS: Record<SyncPhase, string> = {
  idle: 'Not syncing',
  categories: 'Reading the categories',
  listing: 'Looking for changed guides',
  deletions: 'Checking for removed guides',
  guides: 'Downloading guides',
  media: 'Downloading pictures, videos and documents',
  done: 'Finished',
  failed: 'Stopped by an error',
  cancelled: 'Cancelled',
};

export const phaseWords = (phase: SyncPhase): string => PHASE_WORDS[phase];

/** What the items of a phase are, for "12 of 40 guides". */
export function phaseUnit(phase: SyncPhase): string | null {
  switch (phase) {
    case 'listing':
      // It counts the guides the site listed (listing.ts), not its pages.
      return 'guides';
    case 'deletions':
      return 'checks';
    case 'guides':
      return 'guides';
    case 'media':
      return 'files';
    default:
      return null;
  }
}

/** 0..1 within the phase, or null when the total is not known yet (an indeterminate bar). */
export function progressFraction(progress: SyncProgress): number | null {
  if (progress.phase === 'done') return 1;
  if (progress.total <= 0) return null;
  return Math.min(1, Math.max(0, progress.done / progress.total));
}

export const isFinished = (phase: SyncPhase): boolean =>
  phase === 'done' || phase === 'failed' || phase === 'cancelled' || phase === 'idle';

/** "12 of 40 files · 3.1 MB downloaded": the figures that apply to this sync, with their separators. */
export function progressCounts(progress: SyncProgress, running: boolean): string {
  const unit = phaseUnit(progress.phase);
  const parts: string[] = [];
  if (progress.total > 0 && unit)
    parts.push(`${progress.done.toLocaleString()} of ${progress.total.toLocaleString()} ${unit}`);
  else if (running) parts.push('Counting…');
  if (progress.bytes > 0 && (running || progress.phase === 'done'))
    parts.push(`${formatBytes(progress.bytes)} downloaded`);
  if (progress.message) parts.push(progress.message);
  return parts.join(' · ');
}

/**
 * Whether the last sync stopped on its error: not when the sync went on past it (a guide's, named with the
 * failed guides; a picture's; the category tree's) and stored the rest ("Finished, with problems listed
 * below"). An error recorded before the core said so is a guide's when it names one of the failed guides.
 */
export function syncStopped(state: SyncState | null): boolean {
  const error = state?.lastError;
  return (
    error != null &&
    error.wentOn !== true &&
    !(state?.failedGuides ?? []).some((guide) => guide.resource === error.resource && guide.message === error.message)
  );
}

/** The last sync's problem that it went on past and that no failed guide names (a picture's), else null. */
export function otherProblem(state: SyncState | null): SyncError | null {
  const error = state?.lastError;
  if (error == null || syncStopped(state)) return null;
  const guides = state?.failedGuides ?? [];
  return guides.some((guide) => guide.resource === error.resource && guide.message === error.message) ? null : error;
}
