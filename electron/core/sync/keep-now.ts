import type { SyncError } from '../../contract.ts';
import { classify, noAnswer } from '../api/failure.ts';
import { isDamage } from '../db/damage.ts';
import { isDiskFailure } from '../db/disk-space.ts';
import type { SyncContext } from './context.ts';
import { storeQueuedGuides } from './guides-phase.ts';
import { downloadMedia, StorageBudgetError } from './media-downloader.ts';

export interface KeepNowOutcome {
  stored: boolean;
  /** Media of the guide still to download after this (a failure, or no room). */
  mediaPending: number;
  error: SyncError | null;
  /** No answer from the site at all: the network, not the guide. */
  networkFailed: boolean;
}

/**
 * Keeps one guide whole now, whatever the running sync is doing: queued durably first (a crash or a lost
 * network leaves it for the next sync), fetched and stored with its prerequisites and forms, then its
 * media, those its steps show before the zoom variants (media-queue.ts). Its failures are its own, told
 * with the site's words; nothing of the library is touched beyond this guide.
 */
export async function keepGuideNow(ctx: SyncContext, guideid: number): Promise<KeepNowOutcome> {
  const revisionid = ctx.store.guides.listedRevision(guideid);
  if (revisionid === undefined) {
    const error = { message: 'This guide is not in the library: sync first.', resource: null, at: ctx.now() };
    return { stored: false, mediaPending: 0, error, networkFailed: false };
  }
  const problems: SyncError[] = [];
  const withProblems: SyncContext = { ...ctx, problem: (error) => problems.push(error) };
  let networkFailed = false;
  const failure = (error: unknown): SyncError => {
    const site = classify(error);
    networkFailed ||= noAnswer(site);
    if (site.kind !== 'local') return { message: site.message, resource: site.request, at: ctx.now() };
    return error instanceof StorageBudgetError
      ? { message: error.message, resource: null, at: ctx.now() }
      : { message: `Keeping the guide failed: ${String(error)}`, resource: null, at: ctx.now() };
  };
  try {
    if (ctx.store.guides.getDetail(guideid)?.revisionid !== revisionid) {
      ctx.store.syncQueue.enqueue(guideid, revisionid);
      await storeQueuedGuides(withProblems, failure, undefined, [guideid]);
    }
    const stored = ctx.store.guides.getDetail(guideid)?.revisionid === revisionid;
    if (stored) await downloadMedia(withProblems, undefined, guideid);
    const mediaPending = ctx.store.media.pendingOf(guideid, 1000, Number.MAX_SAFE_INTEGER, 'always').length;
    return { stored, mediaPending, error: problems[0] ?? null, networkFailed };
  } catch (error) {
    // A damaged database or a disk that cannot be written is the caller's to report (sync-service.ts).
    if (isDamage(error) || isDiskFailure(error)) throw error;
    const stored = ctx.store.guides.getDetail(guideid)?.revisionid === revisionid;
    const mediaPending = ctx.store.media.pendingOf(guideid, 1000, Number.MAX_SAFE_INTEGER, 'always').length;
    const told = failure(error);
    return { stored, mediaPending, error: problems[0] ?? told, networkFailed };
  }
}
