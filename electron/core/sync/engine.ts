import { setMaxListeners } from 'node:events';
import type { SyncError, SyncOutcome, SyncPhase } from '../../contract.ts';
import { fetchCategoryTree } from '../api/guides-api.ts';
import { classify, noAnswer, unknownKind } from '../api/failure.ts';
import { isDamage } from '../db/damage.ts';
import { isDiskFailure, isStorageFull, STORAGE_FULL_MESSAGE } from '../db/disk-space.ts';
import { z } from 'zod';
import { cursorKey, LAST_SYNC_KEY, type SyncContext } from './context.ts';
import { removeDeleted } from './deletions.ts';
import { fillsConnections } from './front-lane.ts';
import { storeQueuedGuides } from './guides-phase.ts';
import { queuePreparing } from './preparing-videos.ts';
import { listChanges } from './listing.ts';
import { PICTURE_MAX_BYTES } from '../library/media-store.ts';
import { downloadMedia, StorageBudgetError } from './media-downloader.ts';
import { GuidesProgress } from './media-queue.ts';
import { syncQuizList } from './quiz-list.ts';
import { storeTranslations } from './translations-phase.ts';
import { scopeFilter } from '../library/scope.ts';
import { awaitsChoice, scopeToSync } from './first-scope.ts';
import { pullWorkedGuides } from './worked-guides.ts';

/**
 * One sync, phase by phase. Each phase leaves the database consistent, so a crash or a dropped network
 * anywhere leaves a library the next sync completes.
 *
 *   listing ──▶ categories ──▶ plan ──▶ deletions ──▶ guides ──▶ (cursor) ──▶ quizzes ──▶ media ──▶ done
 *      │              │                     │            ╰── media ───────────────────────────╯  │
 *      └──────────────┴─────────────────────┴────────────┴───────────────────────┴──────────┴──▶ failed | cancelled
 *
 * - listing: summaries changed since the cursor (pages of 200), always stored; then the signed-in
 *   technician's favourites and completions (a toggle of theirs still queued keeps what they chose).
 * - categories: the tree, fetched only when something changed or none is stored.
 * - plan: guides in the offline scope, or anyone's favourite here, whose stored revision is not the listed
 *   one are queued (durably), the favourites fetched first;
 *   guides that left the scope keep only their summary.
 * - modules: after the first listing and now and then, the site is asked which modules it offers; the
 *   sync skips what it lacks (sync/site-modules.ts).
 * - guides: queued guides due now fetched a few at a time, each stored in one transaction with its forms,
 *   quizzes, search row and media needs; a failure is that guide's (guides-phase.ts), others go on.
 * - cursor: moves to the newest listed change once every queued guide has been tried (failed ones stay queued).
 * - quizzes: the site's quiz list, when it has quizzes; a failure there is reported and the media go on.
 * - media: what the stored guides need, within the storage budget; a file that fails is reported, others go on.
 *   The downloads start with the guides phase, each guide's as soon as it is stored (media-queue.ts), and
 *   the phase is awaited after the quizzes.
 * - done: or `failed` when a guide or a media file could not be stored (the first one is named).
 */
/** How far past the site's clock (this computer's before any answer) a stored cursor may be and still be used. */
const CURSOR_SLACK_SECONDS = 24 * 60 * 60;

export type EngineOutcome = Omit<SyncOutcome, 'requests' | 'failedGuides'> & {
  networkFailed: boolean;
  storageFull?: boolean;
};

export async function runSync(ctx: SyncContext): Promise<EngineOutcome> {
  const lane: FrontLane = { stop: null };
  try {
    return await syncPhases(ctx, lane);
  } finally {
    lane.stop?.();
  }
}

/** The stop of the front lane's warmth, once this sync opened it (front-lane.ts). */
interface FrontLane {
  stop: (() => void) | null;
}

async function syncPhases(ctx: SyncContext, lane: FrontLane): Promise<EngineOutcome> {
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
    const stored = ctx.store.settings.get(cursorKey(ctx.includePrivate), z.number());
    // A cursor past the site's time (a guide it dated in the future moved it there before listing.ts
    // bounded it) would hide every change: the listing starts again from the beginning, once.
    const cursor =
      stored !== undefined && stored > (ctx.siteNow() ?? ctx.now()) + CURSOR_SLACK_SECONDS ? undefined : stored;
    // A library that was empty before this listing has nothing the site could have deleted: no check.
    const hadGuides = ctx.store.guides.count().total > 0;
    ctx.progress('listing', 0, 0);
    const listed = await listChanges(withProblems, cursor);
    // Many guides or files to fetch fill every shared connection to the site: the technician's own open
    // now, while the sync's next round trips go, to be open beside them when the guides phase fills them.
    const toFetch = Math.max(listed.changed, ctx.store.syncQueue.due(ctx.now()));
    if (ctx.frontLane && fillsConnections(toFetch, () => ctx.store.media.pendingCount(ctx.pictureQuality)))
      lane.stop = ctx.frontLane();
    await ctx.learnModules(ctx.store.guides.planningRows(0, 1, ctx.reader)[0]?.guideid ?? null);
    await pullMarks(withProblems);
    await pullWorked(withProblems);
    await lookAtSessions(withProblems);

    phase = 'categories';
    if (ctx.offers('categories') && (listed.changed > 0 || ctx.store.categories.tree(ctx.reader).length === 0)) {
      ctx.progress('categories', 0, 1);
      await optionalPhase(withProblems, 'categories', async () => {
        const { tree, odd } = await fetchCategoryTree(ctx.transport, ctx.signal);
        // The site's, which it gives again: no flush of the disk waits for it.
        ctx.store.replaceable(() => ctx.store.categories.replace(tree));
        // The sound branches are kept; each odd one is the sync's problem, named.
        for (const path of odd) {
          const message =
            `The site's category "${path}" is not in the form of a category ` +
            '(a list of subcategories, or none), so it was left out.';
          withProblems.problem({ message, resource: 'GET /categories', at: ctx.now() });
        }
      });
    }

    planScope(withProblems);

    phase = 'deletions';
    if (hadGuides) deleted = await removeDeleted(withProblems);

    phase = 'guides';
    // The media start with the guides: each guide's as soon as it is stored (a link's round trips overlap).
    ctx.store.media.resetAttempts();
    ctx.store.media.pruneOrphans();
    // A picture is indexed in the main database and kept in the attached pictures one, in one transaction,
    // but in WAL mode SQLite commits each file on its own (main first): a crash or power loss between
    // them leaves rows 'done' whose pictures are not there. They download again.
    ctx.store.media.requeueMissingPictures(PICTURE_MAX_BYTES);
    const guides = new GuidesProgress();
    const stopMedia = new AbortController();
    const mediaSignal = AbortSignal.any([ctx.signal, stopMedia.signal]);
    setMaxListeners(256, mediaSignal); // one listener per download in flight (sync-service.ts)
    const media = settled(downloadMedia({ ...withProblems, signal: mediaSignal }, guides));
    try {
      changed = await storeQueuedGuides(
        withProblems,
        (error) => describe(error, 'guides', ctx.now()),
        () => guides.stored(),
      );
    } catch (error) {
      // The sync stops here: the downloads in flight too, before the failure is told.
      guides.finish();
      stopMedia.abort();
      await media;
      throw error;
    } finally {
      guides.finish();
    }
    if (ctx.store.syncQueue.untried() === 0 && listed.newest !== undefined && listed.newest !== cursor) {
      // On the disk with every guide stored before it (its flush covers them), waited for off the main thread.
      const newest = listed.newest;
      await ctx.store.durable(() => ctx.store.settings.set(cursorKey(ctx.includePrivate), newest));
    }

    // The guides kept whole, also in the technician's language when it is not the site's own.
    if (ctx.reading) await storeTranslations(withProblems, ctx.reading);

    if (ctx.offers('quizzes')) await optionalPhase(withProblems, 'quizzes', () => syncQuizList(withProblems));

    phase = 'media';
    mediaDownloaded = (await media).unwrap().downloaded;
  } catch (error) {
    // A damaged database or a disk that cannot be written is the caller's to report: not a failed sync.
    if (isDamage(error) || isDiskFailure(error)) throw error;
    if (ctx.signal.aborted) {
      ctx.progress('cancelled', 0, 0);
      return { status: 'cancelled', changed, deleted, mediaDownloaded, error: null, networkFailed: false };
    }
    const failure = describe(error, phase, ctx.now());
    const networkFailed = noAnswer(classify(error));
    ctx.progress('failed', 0, 0);
    return {
      status: 'failed',
      changed,
      deleted,
      mediaDownloaded,
      error: failure,
      networkFailed,
      storageFull: isStorageFull(error),
    };
  }
  if (ctx.signal.aborted) {
    ctx.progress('cancelled', 0, 0);
    return { status: 'cancelled', changed, deleted, mediaDownloaded, error: null, networkFailed: false };
  }
  await ctx.store.durable(() => ctx.store.settings.set(LAST_SYNC_KEY, ctx.now()));
  ctx.progress(problems.length > 0 ? 'failed' : 'done', 1, 1);
  return {
    status: problems.length > 0 ? 'failed' : 'complete',
    changed,
    deleted,
    mediaDownloaded,
    // Each a problem the sync went on past: the rest is stored, and the views say so (not "stopped").
    error: problems[0] ? { ...problems[0], wentOn: true } : null,
    networkFailed: false,
  };
}

/** Rows read at a time by the planner and the guide fetcher: memory does not grow with the site. */
const PAGE = 500;

/**
 * Queues the guides in the scope whose stored revision is not the listed one, and the prerequisites of
 * the guides kept whole whatever the scope (their steps open those guides); a guide kept whole is queued
 * again when one of its prerequisites changed. Guides that left the scope keep only their summary.
 */
function planScope(ctx: SyncContext): void {
  const scoped = scopeFilter(scopeToSync(ctx), ctx.store.categories);
  const kept = new Set(ctx.marks?.kept() ?? []);
  const inScope = (guide: { guideid: number; category: string }) => kept.has(guide.guideid) || scoped(guide);
  const chosen: number[] = [];
  for (let after = 0; ;) {
    const rows = ctx.store.guides.planningRows(after, PAGE, ctx.reader);
    for (const guide of rows) if (inScope(guide)) chosen.push(guide.guideid);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.guideid;
  }
  const needed = new Set(ctx.store.prerequisites.of(chosen));
  ctx.store.replaceable(() => {
    const changed: number[] = [];
    for (let after = 0; ;) {
      const rows = ctx.store.guides.planningRows(after, PAGE, ctx.reader);
      for (const guide of rows) {
        if (inScope(guide) || needed.has(guide.guideid)) {
          if (guide.stored === guide.revisionid) continue;
          ctx.store.syncQueue.enqueue(guide.guideid, guide.revisionid);
          if (guide.stored !== null) changed.push(guide.guideid);
        } else {
          ctx.store.syncQueue.done(guide.guideid);
          if (guide.stored !== null) ctx.store.guides.dropContent(guide.guideid);
        }
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.guideid;
    }
    for (const needs of ctx.store.prerequisites.neededBy(changed)) {
      ctx.store.syncQueue.enqueue(needs.guideid, needs.revisionid);
    }
    queuePreparing(ctx.store, ctx.now());
  });
}

/**
 * The technician's favourites and completions, read before the plan (their favourites are kept whole). A
 * site without them (404, 403) is skipped; another refusal is the sync's problem and the guides go on; no
 * answer at all or a refused sign-in stops the sync, as in any phase.
 */
async function pullMarks(ctx: SyncContext): Promise<void> {
  if (!ctx.marks) return;
  const marks = ctx.marks;
  // Not a module the sync records as lacking: a site without them simply has none to read.
  await tolerated(
    ctx,
    'listing',
    () => marks.pull(ctx.transport, ctx.signal),
    () => {},
    { localStops: true },
  );
}

/**
 * While a big site waits for the first choice, the guides the technician worked on, from the site's work
 * log (worked-guides.ts): kept whole meanwhile. A site without a work log, or refusing it, is skipped.
 */
async function pullWorked(ctx: SyncContext): Promise<void> {
  if (ctx.reader.userid < 0 || !ctx.offers('work_log') || !awaitsChoice(ctx)) return;
  await tolerated(
    ctx,
    'listing',
    () => pullWorkedGuides(ctx),
    // Not taken as the site lacking a work log: a filter it refuses says nothing of the rest.
    () => {},
    { localStops: true },
  );
}

/**
 * The technician's sessions handed over and running, as the site has them now (worklog/site-look.ts): a list
 * each, and a read of each handed over gone from its list. A site without a work log, or refusing a list, is
 * skipped.
 */
async function lookAtSessions(ctx: SyncContext): Promise<void> {
  const look = ctx.siteLook;
  if (!look || !ctx.offers('work_log')) return;
  await tolerated(
    ctx,
    'listing',
    () => look(ctx.transport, ctx.signal),
    () => {},
    { localStops: true },
  );
}

/**
 * A phase the library can do without (the category tree, the quiz list): a site that lacks it is noted,
 * any other failure is reported and the sync goes on to the media. No answer at all (the network) or a
 * refused sign-in still stops the sync.
 */
async function optionalPhase(
  ctx: SyncContext,
  module: 'categories' | 'quizzes',
  run: () => Promise<unknown>,
): Promise<void> {
  const phase = module === 'quizzes' ? 'listing' : 'categories';
  await tolerated(ctx, phase, run, (status) => ctx.lacks(module, status), { localStops: false });
}

/**
 * Runs a part the sync can do without: a site that lacks it calls `lacking`; a refusal, a busy site or an
 * unexpected answer is reported and the sync goes on; no answer at all or a refused sign-in stops it, and a
 * local failure too when `localStops` (the part writes to the database).
 */
async function tolerated(
  ctx: SyncContext,
  phase: SyncPhase,
  run: () => Promise<unknown>,
  lacking: (status: number) => void,
  { localStops }: { localStops: boolean },
): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const failure = classify(error);
    switch (failure.kind) {
      case 'gone':
      case 'forbidden':
      case 'not-offered':
        return lacking(failure.status ?? 404);
      case 'unreachable':
      case 'timeout':
      case 'signed-out':
        throw error;
      case 'local':
        if (localStops) throw error;
        return ctx.problem(describe(error, phase, ctx.now()));
      case 'conflict':
      case 'refused':
      case 'busy':
      case 'site-error':
      case 'unexpected':
        return ctx.problem(describe(error, phase, ctx.now()));
      default:
        return unknownKind(failure);
    }
  }
}

function describe(error: unknown, phase: SyncPhase, at: number): SyncError {
  const failure = classify(error);
  if (failure.kind !== 'local') return { message: failure.message, resource: failure.request, at };
  if (error instanceof StorageBudgetError) return { message: error.message, resource: null, at };
  if (isStorageFull(error)) return { message: STORAGE_FULL_MESSAGE, resource: null, at };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    message: `Sync failed while ${phase === 'guides' ? 'storing guides' : `in ${phase}`}: ${message}`,
    resource: null,
    at,
  };
}

/** A promise that never rejects while nobody awaits it: its failure is told where it is awaited. */
async function settled<T>(promise: Promise<T>): Promise<{ unwrap: () => T }> {
  try {
    const value = await promise;
    return { unwrap: () => value };
  } catch (error) {
    return {
      unwrap: () => {
        throw error;
      },
    };
  }
}
