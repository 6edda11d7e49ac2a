import { isWebPage, unexpectedAnswer } from '../api/errors.ts';
import { classify, mayPass } from '../api/failure.ts';
import { RETRY_BUDGETS } from '../api/retry.ts';
import { RefusedAddressError } from '../api/media-hosts.ts';
import { isStorageFull } from '../db/disk-space.ts';
import type { NeededAt } from '../db/repos/media-repo.ts';
import { zoomVariant } from '../../shared/media.ts';
import { makeRoom, roomGauge } from '../library/budget.ts';
import { MEDIA_FILE_MAX_BYTES, MediaTooLargeError, type Received } from '../library/media-store.ts';
import { shownType } from '../library/media-types.ts';
import type { SyncContext } from './context.ts';
import { GuidesProgress, MediaQueue, NO_MORE_GUIDES, type MediaItem } from './media-queue.ts';
import { Lanes, runAdaptive } from './pool.ts';
import { unheldTime } from './priority.ts';

const MAX_ATTEMPTS = 3;
const BATCH = 500;
const COMMIT_EVERY = 64;
/** Received pictures wait in memory for their commit: at most this many bytes of them. */
const COMMIT_BYTES = 8 * 1024 * 1024;
/** Room left in the budget past which one guide's pictures of both sizes cannot crowd each other out. */
const EAGER_ROOM_BYTES = 256 * 1024 * 1024;

const WEB_PAGE_FOR_PICTURE =
  'the site answered with a web page instead of the picture (a network that shows a sign-in page first, ' +
  'as guest Wi-Fi does, answers so); not kept, asked again at the next sync';

export class StorageBudgetError extends Error {
  override readonly name = 'StorageBudgetError';
}

/**
 * Downloads the media the stored guides need, a few at a time, each length-checked and kept by the
 * media store (pictures in its database, other files renamed into place): first what their views show,
 * then the zoom variant of their step pictures at the chosen picture quality. Before each file, media no
 * stored guide needs (at that quality) are evicted, least recently used first, while the store is over
 * its budget; if the needed media alone exceed the budget, the phase stops with a StorageBudgetError
 * (what the views show is downloaded before any zoom picture takes room). Pending rows survive a crash:
 * the next sync resumes.
 *
 * It may start while the guides phase still stores guides (`guides`): each guide's media are asked for
 * as soon as it is stored, and the phase's progress is told once every guide is in. With `only`, the
 * media of that one guide (keep-now.ts), in the same order.
 */
export async function downloadMedia(
  ctx: SyncContext,
  guides: GuidesProgress = NO_MORE_GUIDES,
  only?: number,
): Promise<{ downloaded: number; bytes: number }> {
  let downloaded = 0;
  let bytes = 0;
  let failed = 0;
  const zoom = zoomVariant(ctx.pictureQuality);
  ctx.store.media.ensureRows(ctx.pictureQuality);
  let total = ctx.store.media.pendingCount(ctx.pictureQuality);
  let budgetError: StorageBudgetError | null = null;
  // The default picture quality (none chosen) takes only the room the budget has: its zoom pictures stop
  // there, and the sync is not failed for a setting nobody made (picture-quality.ts says how many fit).
  let zoomFull = false;
  const outOfBudget = (at: NeededAt, message: string): void => {
    if (at !== 'always' && ctx.pictureQualityChosen === false) zoomFull = true;
    else budgetError ??= new StorageBudgetError(message);
  };
  // The store's size, kept as files land (a SUM over the index per file made the phase quadratic).
  const usage = { bytes: ctx.store.media.usage().bytes };
  // A budget lowered since the last sync, or guides that left the scope: trim first, whatever is pending.
  const room = {
    media: ctx.store.media,
    mediaStore: ctx.mediaStore,
    budgetBytes: ctx.budgetBytes,
    quality: ctx.pictureQuality,
  };
  await makeRoom(room, usage);
  const diskRoom = ctx.diskRoom ? roomGauge(ctx.diskRoom, () => usage.bytes) : null;
  // One guide needed now, with room to spare in the budget: its zoom pictures go with its step pictures
  // (a round trip sooner); a tight budget still goes to what the views show first.
  const eager = only !== undefined && ctx.budgetBytes - usage.bytes >= EAGER_ROOM_BYTES;
  // Finished downloads are kept and indexed a batch at a time, pictures and index rows in one transaction:
  // one commit per batch, not per file. A crash before it loses only the batch, downloaded again next time.
  const finished: { url: string; mime: string; received: Received }[] = [];
  let staged = 0;
  let lastCommit = Date.now();
  const commit = (): void => {
    if (finished.length === 0) return;
    const now = ctx.now();
    ctx.store.replaceable(() => {
      for (const { url, mime, received } of finished) {
        ctx.mediaStore.keep(received);
        ctx.store.media.markDone(url, { file: received.file, mime, bytes: received.bytes }, now);
      }
    });
    for (const { url } of finished) queue.settled(url);
    finished.length = 0;
    staged = 0;
    lastCommit = Date.now();
  };
  // Room is made for each file's announced length on top of what the downloads in flight announced, so
  // the budget holds with several files arriving at once; one at a time, since eviction awaits file
  // removals and two evictions at once would pick the same victims.
  let reserved = 0;
  let roomTurn: Promise<unknown> = Promise.resolve();
  const reserve = (size: number): Promise<boolean> => {
    const turn = roomTurn.then(async () => {
      if (!(await makeRoom(room, usage, reserved + size))) return false;
      reserved += size;
      return true;
    });
    roomTurn = turn.catch(() => undefined);
    return turn;
  };
  // A file whose connection was reset (before or during its answer) is asked again at once, twice at
  // most: a lost connection costs a moment, not the file until the next sync.
  // As many downloads at once as the link takes (pool.ts, Lanes): from 4 up to the configured bound.
  // One guide's media (a guide needed now) all at once: a few files, each round trip is waited for.
  const lanes = new Lanes(2, Math.max(2, ctx.concurrency.media), only === undefined ? 4 : ctx.concurrency.media);
  const fetchOne = async (item: MediaItem, resets: number = RETRY_BUDGETS.downloadResets): Promise<void> => {
    const { url, at, picture } = item;
    // Zoom pictures that no longer fit stop there; with both tiers at once (eager) the step pictures go on.
    if (budgetError || (zoomFull && (!eager || at !== 'always'))) return;
    let size = 0;
    try {
      // Until its head: how long it waited on the link and at the site, whatever its size (pool.ts, Lanes).
      const asked = await unheldTime(ctx.priority, () => ctx.transport.download(url, ctx.signal));
      const [{ response, body }, waited] = [asked.value, asked.ms];
      const length = Number(response.headers.get('content-length'));
      const announced = Number.isFinite(length) && length > 0 ? length : null;
      if (announced !== null && announced > MEDIA_FILE_MAX_BYTES) {
        await discard(body);
        throw new MediaTooLargeError(MEDIA_FILE_MAX_BYTES);
      }
      // A network that shows its sign-in page first (guest Wi-Fi) answers every address with that page:
      // kept, it would stand for the picture for good. Not kept; asked again at the next sync.
      if (picture && isWebPage(response.headers.get('content-type'))) {
        await discard(body);
        throw unexpectedAnswer(`GET ${safePath(url)}`, WEB_PAGE_FOR_PICTURE);
      }
      if (!(await reserve(announced ?? 0))) {
        outOfBudget(at, ctx.budgetLimitedByDisk ? DISK_RESERVE_MESSAGE : budgetMessage(at, ctx.budgetBytes));
        await discard(body);
        return;
      }
      if (diskRoom && diskRoom() < reserved) {
        budgetError ??= new StorageBudgetError(DISK_RESERVE_MESSAGE);
        await discard(body);
        return;
      }
      size = announced ?? 0;
      // Kept with the site's type only when a view shows that type; anything else is stored as opaque bytes.
      const mime = shownType(response.headers.get('content-type'));
      // A body that does not say its size may take only what the budget has left, and never more than a file may.
      const cap =
        announced === null
          ? Math.min(MEDIA_FILE_MAX_BYTES, Math.max(0, ctx.budgetBytes - usage.bytes - reserved))
          : MEDIA_FILE_MAX_BYTES;
      const received = await ctx.mediaStore.receive(body, announced, mime, cap);
      finished.push({ url, mime, received });
      staged += received.picture?.length ?? 0;
      // Not while a guide kept now holds the sync: its answers are handled first on this thread (the files
      // in flight then, at most a lane each, wait in memory; the next one to land after the hold commits).
      const due = finished.length >= COMMIT_EVERY || staged >= COMMIT_BYTES || Date.now() - lastCommit >= 250;
      if (due && !ctx.priority?.held) commit();
      lanes.succeeded(waited);
      downloaded++;
      bytes += received.bytes;
      usage.bytes += received.bytes;
    } catch (error) {
      if (ctx.signal.aborted) return;
      if (isStorageFull(error)) {
        budgetError ??= new StorageBudgetError(DISK_RESERVE_MESSAGE);
        return;
      }
      // The link or the site had enough: fewer at once (a file refused for its size says nothing of the link).
      const failure = classify(error);
      if (mayPass(failure)) lanes.failed();
      if (resets > 0 && failure.kind === 'unreachable' && failure.reason === 'other') {
        reserved -= size;
        size = 0;
        return fetchOne(item, resets - 1);
      }
      failed++;
      let message = error instanceof Error ? error.message : String(error);
      if (error instanceof MediaTooLargeError) {
        const mb = (n: number): string => `${Math.round(n / 1e6)} MB`;
        if (error.limit < MEDIA_FILE_MAX_BYTES) {
          // Stopped at the budget: the phase ends as a budget problem, what was stored stays.
          outOfBudget(at, budgetMessage(at, ctx.budgetBytes));
          message =
            `the site sent it without its size, and it passed the ${mb(error.limit)} ` +
            `left in the storage budget; stopped there, nothing of it kept`;
        } else {
          message =
            `larger than the largest media file kept (${mb(MEDIA_FILE_MAX_BYTES)}); ` +
            `stopped there, nothing of it kept`;
        }
      }
      ctx.store.media.markFailed(url, message);
      queue.settled(url, true);
      // A refused address names its origin: the sync centre offers to allow it.
      const refused = error instanceof RefusedAddressError ? { mediaOrigin: error.origin } : {};
      const problem = {
        message: `A media file${whereUsed(ctx.store, url)} could not be downloaded: ${message}`,
        resource: `GET ${safePath(url)}`,
      };
      // The default quality's zoom picture that did not fit the budget is no failure of the sync (above).
      // A file asked again later in this sync (its tries not spent) fails the sync only if its last try does:
      // over a lossy link it usually comes then, and a sync that got every file is no failed sync.
      const lastTry = item.attempts + 1 >= MAX_ATTEMPTS || stopped();
      if (lastTry && !(zoomFull && at !== 'always')) ctx.problem({ ...problem, at: ctx.now(), ...refused });
    } finally {
      reserved -= size;
    }
    report();
  };
  // The phase's figures are told once every guide is in (the guides phase tells its own until then).
  let counted = false;
  const report = (): void => {
    if (!guides.finished) return;
    if (!counted) {
      counted = true;
      // Files that failed are still counted as to do; files finished but not committed yet are not.
      total = Math.max(total, downloaded + ctx.store.media.pendingCount(ctx.pictureQuality) - finished.length);
    }
    ctx.progress('media', downloaded + failed, total, bytes);
  };
  // What the views show first, then the zoom variant: a tight budget is spent on the steps' own pictures.
  const stopped = () => ctx.signal.aborted || budgetError !== null || (zoomFull && !eager);
  const queue = new MediaQueue(ctx.store, guides, zoom, MAX_ATTEMPTS, stopped, only, eager);
  const fetchItem = async (item: MediaItem): Promise<void> => {
    try {
      await fetchOne(item);
    } finally {
      queue.ended(item);
    }
  };
  await runAdaptive(queue, lanes, fetchItem, ctx.signal);
  report();
  commit();
  ctx.mediaStore.sweep();
  if (budgetError) throw budgetError;
  return { downloaded, bytes };
}

/**
 * Where a file that did not come is used, said to the technician (the file's name alone meant nothing to
 * them, found walking a site of iFixit's dialect): ` of "Guide title", step 3,`, or nothing when no stored
 * guide names it.
 */
function whereUsed(store: SyncContext['store'], url: string): string {
  const user = store.media.firstUser(url);
  if (!user) return '';
  const steps = store.guides.getDetail(user.guideid)?.steps ?? [];
  const at = steps.findIndex((step) => JSON.stringify(step.media).includes(JSON.stringify(url).slice(1, -1)));
  return ` of "${user.title}"${at >= 0 ? `, step ${at + 1},` : ''}`;
}

/** Stops a download whose body is not wanted: leaving the loop cancels it. */
async function discard(body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) {
    void chunk;
    break;
  }
}

const DISK_RESERVE_MESSAGE =
  'The disk is nearly full: media downloads stopped to keep the room Fieldguide saves for your work. ' +
  'Free some space or choose fewer guides for offline use; the guides themselves are kept.';

function budgetMessage(at: NeededAt, budgetBytes: number): string {
  const budget = `the storage budget (${Math.round(budgetBytes / 1e6)} MB)`;
  if (at === 'always')
    return (
      `The media of the guides chosen for offline use need more than ${budget}: ` +
      `raise the budget or choose fewer guides.`
    );
  return (
    `The ${at === 'large' ? 'large' : 'original'} pictures for zoom ` +
    `of the guides chosen for offline use need more than ${budget}: ` +
    'choose a lower picture quality, raise the budget or choose fewer guides. ' +
    'The guides and the pictures their steps show are kept.'
  );
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
