import type { QuizRevision, SyncError } from '../../contract.ts';
import { classify, mayPass, unknownKind, type Failure } from '../api/failure.ts';
import { isGuide } from '../api/resource.ts';
import { RETRY_BUDGETS } from '../api/retry.ts';
import { isDamage } from '../db/damage.ts';
import { isDiskFailure, isStorageFull } from '../db/disk-space.ts';
import type { SyncContext } from './context.ts';
import {
  fetchQuiz,
  fetchWholeGuide,
  type GuideParts,
  type PrerequisiteSource,
  type QuizAsker,
  type WholeGuide,
} from './guide-fetcher.ts';
import { Lanes, runAdaptive } from './pool.ts';
import { unheldTime } from './priority.ts';
import { notePreparing } from './preparing-videos.ts';
import type { StoredGuide } from '../db/repos/guides-repo.ts';

/**
 * A guide that fails is the guide's failure, never the sync's (issue 15). It is tried once more at once
 * when no layer beneath asks again for that failure (retriedHere, RETRY_BUDGETS), then recorded with the
 * site's message (no answer at all, a dropped connection, is the network's and is not counted). Its next
 * tries back off: the next MAX_QUICK_ATTEMPTS-1 syncs try it again, then it waits BACKOFF_SECONDS
 * (doubling), and after MAX_GUIDE_ATTEMPTS it is not tried again until Retry or the site lists a new
 * revision of it.
 */
export const MAX_GUIDE_ATTEMPTS = 5;
const MAX_QUICK_ATTEMPTS = 3;
const BACKOFF_SECONDS = 30 * 60;

export function nextAttemptAt(attempts: number, now: number): number | null {
  if (attempts >= MAX_GUIDE_ATTEMPTS) return null;
  if (attempts < MAX_QUICK_ATTEMPTS) return now;
  return now + BACKOFF_SECONDS * 2 ** (attempts - MAX_QUICK_ATTEMPTS);
}

/** Rows read at a time: memory does not grow with the site. */
const PAGE = 500;

/**
 * The guides due now, read a page at a time as the fetcher takes them; `only` those. The favourites go first
 * (the guides a technician keeps at hand are the ones they open next), then the rest in guide order.
 */
function* dueGuides(ctx: SyncContext, now: number, only?: readonly number[]): Generator<{ guideid: number }> {
  if (only) {
    yield* only.map((guideid) => ({ guideid }));
    return;
  }
  const first = new Set(ctx.store.syncQueue.dueAmong(ctx.marks?.kept() ?? [], now));
  yield* [...first].map((guideid) => ({ guideid }));
  for (let after = 0; ;) {
    const rows = ctx.store.syncQueue.page(after, PAGE, now);
    yield* rows.filter((row) => !first.has(row.guideid));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.guideid;
  }
}

/** Guides fetched are stored a few at a time, in one transaction (one fsync of the WAL, not one per guide). */
const COMMIT_EVERY = 16;
const COMMIT_MS = 100;

/**
 * Fetches and stores the queued guides due now (`only` these, whatever their turn: a guide the
 * technician needs now, keep-now.ts); answers how many were stored.
 */
export async function storeQueuedGuides(
  ctx: SyncContext,
  describe: (error: unknown) => SyncError,
  stored?: () => void,
  only?: readonly number[],
): Promise<number> {
  const now = ctx.now();
  const total = only?.length ?? ctx.store.syncQueue.due(now);
  let done = 0;
  // Guides stored, each once (a prerequisite fetched with a guide that needs it may come twice).
  const storedIds = new Set<number>();
  ctx.progress('guides', 0, total);
  // Release notes are read only with a guide someone here read in another revision than the one listed
  // now (the changes banner shows them): no request for any other guide, none once the site said it has none.
  let releasesOffered = true;
  const parts: GuideParts = {
    offers: ctx.offers,
    lacks: ctx.lacks,
    storedTags: (guideid) => ctx.store.guides.getDetail(guideid)?.tags,
    releases: {
      wanted: (guideid) => {
        const listed = ctx.store.guides.listedRevision(guideid);
        return releasesOffered && listed != null && ctx.store.guideReads.readInAnother(guideid, listed);
      },
      lacking: () => {
        releasesOffered = false;
      },
    },
  };
  const knownQuiz = (id: number) => ctx.store.quizzes.revision(id);
  // Each quiz revision once in a sync, however many guides fetched side by side name it: a second request
  // for its courses would also not wait out the Retry-After a busy site gave the first.
  const quizzes = new Map<number, Promise<QuizRevision>>();
  const quizOnce: QuizAsker = (listed) => {
    const known = quizzes.get(listed.quizRevisionid);
    if (known) return known;
    const asked = fetchQuiz(ctx.transport, listed, knownQuiz, ctx.signal);
    quizzes.set(listed.quizRevisionid, asked);
    asked.catch(() => quizzes.delete(listed.quizRevisionid));
    return asked;
  };
  // A prerequisite kept whole at the revision the site lists is taken from the library, not fetched again.
  // Videos are kept for this laptop's screen, in the room the budget has left.
  const room = Math.max(0, ctx.budgetBytes - ctx.store.media.usage().bytes);
  const prerequisites: PrerequisiteSource = {
    stored: (id) => {
      const detail = ctx.store.guides.getDetail(id);
      return detail && detail.revisionid === ctx.store.guides.listedRevision(id) ? detail : undefined;
    },
    fit: { display: ctx.display ?? null, roomBytes: room, short: room < ctx.budgetBytes / 4 },
    fetchWhole: (guideid) => fetchOnce(guideid),
  };
  // Each guide is fetched once in a sync, whether it is queued, a prerequisite of guides queued, or both; a
  // failure is asked again by whoever needs it next.
  const wholes = new Map<number, Promise<WholeGuide>>();
  const fetchOnce = (guideid: number): Promise<WholeGuide> => {
    const known = wholes.get(guideid);
    if (known) return known;
    const asked = fetchWholeGuide(ctx.transport, guideid, quizOnce, ctx.signal, parts, prerequisites);
    wholes.set(guideid, asked);
    asked.catch(() => wholes.delete(guideid));
    return asked;
  };
  const stagedIds = new Set<number>();
  // As many guides at once as the link takes (pool.ts): from 6 up to the configured bound.
  const lanes = new Lanes(2, Math.max(2, ctx.concurrency.guides), 6);

  /** A guide that could not be fetched or stored: recorded with the site's words, or the sync stops. */
  const failed = (guideid: number, error: unknown): void => {
    // Not the guide's: a refused sign-in, a full disk or a damaged
    // database stop the sync (every other guide would fail the same way).
    const failure = classify(error);
    if (failure.kind === 'signed-out' || isStorageFull(error) || isDiskFailure(error) || isDamage(error)) throw error;
    const problem = describe(error);
    // No answer at all is the network's failure, not the guide's: it does not count towards the bound.
    const counted = failure.kind !== 'unreachable';
    ctx.store.syncQueue.failed(
      guideid,
      problem.message,
      problem.resource,
      ctx.now(),
      (attempts) => nextAttemptAt(attempts, ctx.now()),
      counted,
    );
    ctx.problem(problem);
  };

  // Fetched guides wait here for their commit; a crash before it loses only them (fetched again next sync).
  let staged: StoredGuide[] = [];
  let batches = 0;
  // A batch waits at most COMMIT_MS (its guides' media wait for it); a failure of a commit made by the
  // timer is told by the next guide, or at the end.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const deferred: { failure: { error: unknown } | null } = { failure: null };
  const commitNow = (): void => {
    try {
      commit();
    } catch (error) {
      deferred.failure ??= { error };
    }
  };
  // While a guide kept now holds the sync, its batches wait: a batch's commit holds this thread for tens of
  // milliseconds, and the kept guide's answers would wait behind it (sync-keep-commits.test.ts).
  let afterHold: Promise<void> | null = null;
  const commitAfterHold = (priority: NonNullable<SyncContext['priority']>): void => {
    afterHold ??= priority.clear().then(() => {
      afterHold = null;
      commitNow();
    });
  };
  const commitLater = (): void => {
    timer ??= setTimeout(() => {
      if (ctx.priority?.held) commitAfterHold(ctx.priority);
      else commitNow();
    }, COMMIT_MS);
  };
  // The site's languages, as its guides tell them: the language each answered in (asked in none), and those offered.
  let siteLanguage: string | null = null;
  const languages = new Set<string>();
  const storeAll = (guides: StoredGuide[]): void =>
    ctx.store.replaceable(() => {
      for (const guide of guides) {
        ctx.store.guides.storeGuide(guide, ctx.now());
        if (guide.releases) ctx.store.guideReleases.replace(guide.detail.guideid, guide.releases);
        ctx.store.syncQueue.done(guide.detail.guideid);
        siteLanguage ??= guide.detail.language?.langid ?? null;
        for (const langid of guide.languages ?? []) languages.add(langid);
      }
      notePreparing(
        ctx.store,
        guides.map((guide) => guide.detail),
        ctx.now(),
      );
    });
  const commit = (): void => {
    const batch = staged;
    staged = [];
    if (timer) clearTimeout(timer);
    timer = null;
    if (batch.length === 0) return;
    batches++;
    try {
      storeAll(batch);
    } catch (error) {
      const stops = isStorageFull(error) || isDiskFailure(error) || isDamage(error);
      if (batch.length === 1 || stops) return failed(batch[0]!.detail.guideid, error);
      // One guide the database refuses must not cost the others: each alone, and the refused one is its own failure.
      for (const guide of batch) {
        try {
          storeAll([guide]);
        } catch (alone) {
          failed(guide.detail.guideid, alone);
          continue;
        }
        storedIds.add(guide.detail.guideid);
      }
      stored?.();
      ctx.guidesStored?.(batch.map((guide) => guide.detail.guideid).filter((id) => storedIds.has(id)));
      return;
    }
    for (const guide of batch) storedIds.add(guide.detail.guideid);
    stored?.();
    ctx.guidesStored?.(batch.map((guide) => guide.detail.guideid));
  };

  const running = runAdaptive(
    dueGuides(ctx, now, only),
    lanes,
    async ({ guideid }) => {
      for (let tries = 1; tries <= 1 + RETRY_BUDGETS.guideRetries; tries++) {
        try {
          // Its answers whole (a few kB each): how long it waited on the link and at the site (pool.ts, Lanes).
          const { value: whole, ms: waited } = await unheldTime(ctx.priority, () => fetchOnce(guideid));
          // Its prerequisites fetched with it are guides of their own too (those the library lists), each staged once.
          const listed = whole.prerequisites.filter((p) => ctx.store.guides.listedRevision(p.detail.guideid) != null);
          for (const guide of [whole.guide, ...listed]) {
            if (stagedIds.has(guide.detail.guideid)) continue;
            stagedIds.add(guide.detail.guideid);
            staged.push(guide);
          }
          lanes.succeeded(waited);
          break;
        } catch (error) {
          if (ctx.signal.aborted) return;
          const failure = classify(error);
          if (failure.kind === 'gone' && isGuide(failure.resource, guideid)) {
            // Deleted between the listing and now: the next deletion check removes it.
            ctx.store.syncQueue.done(guideid);
            break;
          }
          if (mayPass(failure)) lanes.failed();
          if (tries <= RETRY_BUDGETS.guideRetries && retriedHere(failure)) continue;
          failed(guideid, error);
          break;
        }
      }
      if (deferred.failure) throw deferred.failure.error;
      // The first batches small, so the first guides' media start at once: 1, 2, 4, … up to COMMIT_EVERY.
      if (staged.length > 0 && ctx.priority?.held) commitAfterHold(ctx.priority);
      else if (staged.length >= Math.min(COMMIT_EVERY, 2 ** batches)) commit();
      else if (staged.length > 0) commitLater();
      ctx.progress('guides', ++done, total);
    },
    ctx.signal,
  );
  try {
    await running;
  } catch (error) {
    // The sync stops; what was fetched before is kept if it can be (the first failure is the one told).
    try {
      commit();
    } catch {
      /* told above */
    }
    throw error;
  }
  // What was fetched is kept, even when the sync was cancelled meanwhile (after a guide kept now, unless so).
  if (ctx.priority?.held && !ctx.signal.aborted) await ctx.priority.clear();
  commit();
  if (deferred.failure) throw deferred.failure.error;
  if (siteLanguage !== null || languages.size > 0) ctx.learnLanguages?.(siteLanguage, [...languages]);
  return storedIds.size;
}

/**
 * What the guides phase asks again itself: only what no layer beneath it does (RETRY_BUDGETS). The
 * transport asks a reset read again, and patient.ts waits out a busy site that says how long.
 */
function retriedHere(failure: Failure): boolean {
  switch (failure.kind) {
    case 'timeout':
    case 'site-error':
      return true;
    case 'busy':
      return failure.limit === 'overload' && failure.retryAfter === undefined;
    case 'unreachable':
    case 'signed-out':
    case 'forbidden':
    case 'gone':
    case 'not-offered':
    case 'conflict':
    case 'refused':
    case 'unexpected':
    case 'local':
      return false;
    default:
      return unknownKind(failure);
  }
}
