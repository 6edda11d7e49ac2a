import type { SyncError, SyncOutcome, SyncPhase } from '../../contract.ts';
import { fetchCategoryTree } from '../api/guides-api.ts';
import { ApiError } from '../api/errors.ts';
import { isDamage } from '../db/damage.ts';
import { isStorageFull, STORAGE_FULL_MESSAGE } from '../db/disk-space.ts';
import { z } from 'zod';
import { cursorKey, LAST_SYNC_KEY, type SyncContext } from './context.ts';
import { removeDeleted } from './deletions.ts';
import { fetchWholeGuide } from './guide-fetcher.ts';
import { listChanges } from './listing.ts';
import { downloadMedia, StorageBudgetError } from './media-downloader.ts';
import { runBounded } from './pool.ts';
import { syncQuizList } from './quiz-list.ts';
import { scopeFilter } from '../library/scope.ts';

/**
 * One sync, phase by phase. Each phase leaves the database consistent, so a crash or a dropped network
 * anywhere leaves a library the next sync completes.
 *
 *   listing ──▶ categories ──▶ plan ──▶ deletions ──▶ guides ──▶ (cursor) ──▶ quizzes ──▶ media ──▶ done
 *      │              │                     │            │                       │          │
 *      └──────────────┴─────────────────────┴────────────┴───────────────────────┴──────────┴──▶ failed | cancelled
 *
 * - listing: summaries changed since the cursor (pages of 200), always stored.
 * - categories: the tree, fetched only when something changed or none is stored.
 * - plan: guides in the offline scope whose stored revision is not the listed one are queued (durably);
 *   guides that left the scope keep only their summary.
 * - guides: queued guides fetched a few at a time, each stored in one transaction with its forms,
 *   quizzes, search row and media needs; failures stay queued and are reported, others go on.
 * - cursor: moves to the newest listed change only when the queue is empty (fully stored).
 * - quizzes: the site's quiz list; revisions not stored yet (course quizzes on no guide) are fetched.
 * - media: what the stored guides need, within the storage budget; a file that fails is reported, others go on.
 * - done: or `failed` when a guide or a media file could not be stored (the first one is named).
 */
export type EngineOutcome = Omit<SyncOutcome, 'requests'> & { networkFailed: boolean; storageFull?: boolean };

export async function runSync(ctx: SyncContext): Promise<EngineOutcome> {
  const problems: SyncError[] = [];
  const withProblems: SyncContext = {
    ...ctx,
    problem: (error) => {
      problems.push(error);
      ctx.problem(error);
    },
  };
  let phase: SyncPhase = 'listing';
  let changed = 0;
  let deleted = 0;
  let mediaDownloaded = 0;
  try {
    const cursor = ctx.store.settings.get(cursorKey(ctx.includePrivate), z.number());
    ctx.progress('listing', 0, 0);
    const listed = await listChanges(withProblems, cursor);

    phase = 'categories';
    if (listed.changed > 0 || ctx.store.categories.tree(ctx.reader).length === 0) {
      ctx.progress('categories', 0, 1);
      ctx.store.categories.replace(await fetchCategoryTree(ctx.transport, ctx.signal));
    }

    planScope(withProblems);

    phase = 'deletions';
    deleted = await removeDeleted(withProblems);

    phase = 'guides';
    changed = await storeQueuedGuides(withProblems);
    if (ctx.store.syncQueue.size() === 0 && listed.newest !== undefined && listed.newest !== cursor) {
      ctx.store.settings.set(cursorKey(ctx.includePrivate), listed.newest);
    }

    await syncQuizList(withProblems);

    phase = 'media';
    ctx.store.media.resetAttempts();
    ctx.store.media.pruneOrphans();
    mediaDownloaded = (await downloadMedia(withProblems)).downloaded;
  } catch (error) {
    // A damaged database is the caller's to report (and repair at the next start): not a failed sync.
    if (isDamage(error)) throw error;
    if (ctx.signal.aborted) {
      ctx.progress('cancelled', 0, 0);
      return { status: 'cancelled', changed, deleted, mediaDownloaded, error: null, networkFailed: false };
    }
    const failure = describe(error, phase, ctx.now());
    const networkFailed = error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
    ctx.progress('failed', 0, 0);
    return { status: 'failed', changed, deleted, mediaDownloaded, error: failure, networkFailed, storageFull: isStorageFull(error) };
  }
  if (ctx.signal.aborted) {
    ctx.progress('cancelled', 0, 0);
    return { status: 'cancelled', changed, deleted, mediaDownloaded, error: null, networkFailed: false };
  }
  ctx.store.settings.set(LAST_SYNC_KEY, ctx.now());
  ctx.progress(problems.length > 0 ? 'failed' : 'done', 1, 1);
  return {
    status: problems.length > 0 ? 'failed' : 'complete',
    changed,
    deleted,
    mediaDownloaded,
    error: problems[0] ?? null,
    networkFailed: false,
  };
}

/** Rows read at a time by the planner and the guide fetcher: memory does not grow with the site. */
const PAGE = 500;

function planScope(ctx: SyncContext): void {
  const inScope = scopeFilter(ctx.scope, ctx.store.categories);
  ctx.store.replaceable(() => {
    for (let after = 0; ; ) {
      const rows = ctx.store.guides.planningRows(after, PAGE, ctx.reader);
      for (const guide of rows) {
        if (inScope(guide)) {
          if (guide.stored !== guide.revisionid) ctx.store.syncQueue.enqueue(guide.guideid, guide.revisionid);
        } else {
          ctx.store.syncQueue.done(guide.guideid);
          if (guide.stored !== null) ctx.store.guides.dropContent(guide.guideid);
        }
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.guideid;
    }
  });
}

/** The queue in guide order, read a page at a time as the fetcher takes guides. */
function* queuedGuides(ctx: SyncContext): Generator<{ guideid: number }> {
  for (let after = 0; ; ) {
    const rows = ctx.store.syncQueue.page(after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.guideid;
  }
}

async function storeQueuedGuides(ctx: SyncContext): Promise<number> {
  const total = ctx.store.syncQueue.size();
  let done = 0;
  let stored = 0;
  ctx.progress('guides', 0, total);
  await runBounded(
    queuedGuides(ctx),
    ctx.concurrency.guides,
    async ({ guideid }) => {
      try {
        const guide = await fetchWholeGuide(ctx.transport, guideid, (id) => ctx.store.quizzes.revision(id), ctx.signal);
        ctx.store.replaceable(() => {
          ctx.store.guides.storeGuide(guide, ctx.now());
          ctx.store.syncQueue.done(guideid);
        });
        stored++;
      } catch (error) {
        if (ctx.signal.aborted) return;
        if (error instanceof ApiError && error.kind === 'http' && error.status === 404 && error.resource === `GET /guides/${guideid}`) {
          // Deleted between the listing and now: the next deletion check removes it.
          ctx.store.syncQueue.done(guideid);
        } else if ((error instanceof ApiError && error.kind === 'http' && error.status === 401) || isStorageFull(error) || isDamage(error)) {
          // A full disk or a damaged database stops the sync: every other guide would fail the same way.
          throw error;
        } else {
          const problem = describe(error, 'guides', ctx.now());
          ctx.store.syncQueue.failed(guideid, problem.message);
          ctx.problem(problem);
        }
      }
      ctx.progress('guides', ++done, total);
    },
    ctx.signal,
  );
  return stored;
}

function describe(error: unknown, phase: SyncPhase, at: number): SyncError {
  if (error instanceof ApiError) return { message: error.message, resource: error.resource, at };
  if (error instanceof StorageBudgetError) return { message: error.message, resource: null, at };
  if (isStorageFull(error)) return { message: STORAGE_FULL_MESSAGE, resource: null, at };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { message: `Sync failed while ${phase === 'guides' ? 'storing guides' : `in ${phase}`}: ${message}`, resource: null, at };
}
