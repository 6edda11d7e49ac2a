import type { GuideReader } from '../db/repos/guide-row.ts';
import { isDamage } from '../db/damage.ts';
import { isStorageTrouble } from '../db/disk-space.ts';
import type { Store } from '../db/store.ts';
import { matchesName, PICTURE_MAX_BYTES, type MediaStore, type StoredContent } from './media-store.ts';

/** A media file as the shells serve it: a picture's bytes or a file's path, with its type and length. */
export type StoredMediaContent = StoredContent & { mime: string; bytes: number };

export interface StoredMediaDeps {
  store: Store;
  mediaStore: MediaStore;
  /** Who reads: a private guide's media are only for those who may read it. */
  reader: () => GuideReader | null;
  now: () => number;
  log: (message: string) => void;
}

/**
 * The stored copies of media as they are served, and what keeps them true: a copy lost or cut short, or
 * whose bytes are no longer what its name says (a picture each time it is read, a file the first time it is
 * served in a run), is never served and downloads again; a damaged pictures database is set aside and
 * made again (media-store.ts says where each kind is kept).
 */
export class StoredMedia {
  /**
   * Whether the pictures database was checked in full in this run, after a picture read wrong: once sound,
   * another picture read wrong is damage to its own bytes (what is read as damaged is checked each time).
   */
  #checkedWhole = false;

  constructor(private readonly deps: StoredMediaDeps) {
    if (deps.store.picturesRecreated) this.#requeueMissingPictures();
  }

  /** The stored content of a media URL; null when not here (or not for this reader, or no longer intact). */
  resolve(url: string): StoredMediaContent | null {
    const { store, mediaStore } = this.deps;
    const stored = store.media.lookup(url);
    if (!stored || !store.media.readable(url, this.deps.reader())) return null;
    let content: StoredContent | null;
    try {
      content = mediaStore.read(stored.file);
      if (content?.data && !matchesName(stored.file, content.data)) {
        // Wrong bytes may be a page pointer read wrong: dropping the row would free pages another picture
        // still holds, and the next download would write over them. The database is checked in full first.
        if (!this.#checkedWhole) {
          this.#checkedWhole = true;
          if (this.repairPictures()) return null;
        }
        this.#damaged(stored.file, 'picture');
        return null;
      }
    } catch (error) {
      // A page of the pictures database that cannot be read: found by a full check, set aside, made again.
      if (isDamage(error) && this.repairPictures()) return null;
      throw error;
    }
    if (!content) return null;
    const size = mediaStore.sizeOf(content);
    if (size !== stored.bytes) {
      // Lost or cut short (power loss before the disk had it, a hand deletion): download it again.
      store.media.markFailed(url, `the stored file was ${size < 0 ? 'missing' : `${size} of ${stored.bytes} bytes`}`);
      return null;
    }
    // When it was last served (a full budget removes the least recently used first): a commit that does not wait
    // for the disk. A guide's pictures are a dozen requests at once, and a flush of the disk for each held the
    // main process that long each time on a slow disk; a power cut may take the last of these times back.
    // Best effort: on a full disk the picture is still served (every step's picture went blank there: the
    // time's write failed with SQLITE_FULL, and the picture with it).
    try {
      store.replaceable(() => store.media.touch(url, this.deps.now()));
    } catch (error) {
      if (!isStorageTrouble(error)) throw error;
    }
    return { ...content, mime: stored.mime, bytes: stored.bytes };
  }

  /** Whether a stored copy is intact (pictures were checked as they were read; a file is read through once a run). */
  async intact(url: string, content: StoredContent): Promise<boolean> {
    if (content.path === undefined) return true;
    const stored = this.deps.store.media.lookup(url);
    if (!stored) return false;
    if (await this.deps.mediaStore.fileIntact(stored.file)) return true;
    this.#damaged(stored.file, 'file');
    return false;
  }

  /**
   * After a read or a write failed as damaged: the pictures database is checked in full and, when it is
   * the damaged one, set aside and made again; its pictures are queued to download again. Answers whether
   * it was (the damage is then repaired: no restart needed).
   */
  repairPictures(): boolean {
    if (!this.deps.store.repairPictures()) return false;
    this.#requeueMissingPictures();
    return true;
  }

  #requeueMissingPictures(): void {
    const requeued = this.deps.store.media.requeueMissingPictures(PICTURE_MAX_BYTES);
    if (requeued === 0) return;
    this.deps.log(`${requeued} stored picture(s) were missing; they download again at the next sync.`);
  }

  /** A stored copy whose bytes are not what its name says: dropped, and every URL of it downloaded again. */
  #damaged(file: string, what: string): void {
    this.deps.mediaStore.drop(file);
    const why = `the stored ${what} was damaged (its content no longer matched its name)`;
    const requeued = this.deps.store.media.requeueFile(file, why);
    this.deps.log(`A stored ${what} (${file}) was damaged; dropped, ${requeued} address(es) of it download again.`);
  }
}
