import { ApiError } from '../api/errors.ts';
import { makeRoom } from '../library/budget.ts';
import { MediaLengthError, type Received } from '../library/media-store.ts';
import type { SyncContext } from './context.ts';
import { runBounded } from './pool.ts';

const MAX_ATTEMPTS = 3;
const BATCH = 500;
const COMMIT_EVERY = 64;
/** Received pictures wait in memory for their commit: at most this many bytes of them. */
const COMMIT_BYTES = 8 * 1024 * 1024;

export class StorageBudgetError extends Error {
  override readonly name = 'StorageBudgetError';
}

/**
 * Downloads the media the stored guides need, a few at a time, each length-checked and kept by the
 * media store (pictures in its database, other files renamed into place). Before each file, media no
 * stored guide needs are evicted (least recently used first) while the store is over its budget; if the
 * needed media alone exceed the budget, the phase stops with a StorageBudgetError. Pending rows survive a crash: the next sync resumes.
 */
export async function downloadMedia(ctx: SyncContext): Promise<{ downloaded: number; bytes: number }> {
  let downloaded = 0;
  let bytes = 0;
  let failed = 0;
  const total = ctx.store.media.pendingCount();
  let budgetError: StorageBudgetError | null = null;
  // The store's size, kept as files land (a SUM over the index per file made the phase quadratic).
  const usage = { bytes: ctx.store.media.usage().bytes };
  // A budget lowered since the last sync, or guides that left the scope: trim first, whatever is pending.
  const room = { media: ctx.store.media, mediaStore: ctx.mediaStore, budgetBytes: ctx.budgetBytes };
  await makeRoom(room, usage);
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
    finished.length = 0;
    staged = 0;
    lastCommit = Date.now();
  };
  for (;;) {
    if (ctx.signal.aborted || budgetError) break;
    const batch = ctx.store.media.pending(BATCH, MAX_ATTEMPTS);
    if (batch.length === 0) break;
    await runBounded(
      batch,
      ctx.concurrency.media,
      async ({ url }) => {
        if (budgetError) return;
        if (!(await makeRoom(room, usage))) {
          budgetError = new StorageBudgetError(
            `The media of the guides chosen for offline use need more than the storage budget (${Math.round(ctx.budgetBytes / 1e6)} MB): ` +
              'raise the budget or choose fewer guides.',
          );
          return;
        }
        try {
          const { response, body } = await ctx.transport.download(url, ctx.signal);
          const length = Number(response.headers.get('content-length'));
          const mime = response.headers.get('content-type') ?? 'application/octet-stream';
          const received = await ctx.mediaStore.receive(body, Number.isFinite(length) && length > 0 ? length : null, mime);
          finished.push({ url, mime, received });
          staged += received.picture?.length ?? 0;
          if (finished.length >= COMMIT_EVERY || staged >= COMMIT_BYTES || Date.now() - lastCommit >= 250) commit();
          downloaded++;
          bytes += received.bytes;
          usage.bytes += received.bytes;
        } catch (error) {
          if (ctx.signal.aborted) return;
          failed++;
          const message = error instanceof ApiError || error instanceof MediaLengthError || error instanceof Error ? error.message : String(error);
          ctx.store.media.markFailed(url, message);
          ctx.problem({ message: `A media file could not be downloaded: ${message}`, resource: `GET ${safePath(url)}`, at: ctx.now() });
        }
        ctx.progress('media', downloaded + failed, total, bytes);
      },
      ctx.signal,
    );
    commit();
  }
  commit();
  ctx.mediaStore.sweep();
  if (budgetError) throw budgetError;
  return { downloaded, bytes };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
