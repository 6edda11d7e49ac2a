import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../db/store.ts';

/**
 * Lets go of the attached files the work no longer needs on this computer (attachment-files-repo.ts
 * `fileNoLongerNeeded`): a video or a document once the site has it, a file replaced or cleared before it
 * left. Every file was kept until the technician switched sites: a 200 MB video for good after its upload,
 * and each one replaced before it left, until a workshop laptop's disk was full. Photos a step shows stay
 * for the session report, read with no network.
 *
 * A file goes only once what says it is not needed is on the disk, the log's and the work journal's
 * (Store.allOnDisk): a power cut never brings back a record that needs a deleted file. The record is
 * read again then, so a change that did not commit deletes nothing; a disk that failed deletes nothing.
 */
export class KeptFiles {
  /** Attachments to look at, by id. */
  readonly #toLook = new Set<string>();
  #looking: Promise<void> | null = null;
  #closed = false;

  constructor(private readonly deps: { store: Store; attachmentsDir: string; log: (message: string) => void }) {}

  /**
   * An attachment whose file may no longer be needed (uploaded, replaced, cleared): call it once the change is
   * made, in its transaction or after; it is looked at again once that has committed and is on the disk. A
   * file still needed as things stand (a photo a step shows, most uploads) costs no wait for the disk.
   */
  consider(attachmentId: string): void {
    if (this.#closed || this.deps.store.attachmentFiles.fileNoLongerNeeded(attachmentId) === null) return;
    this.#toLook.add(attachmentId);
    this.#looking ??= this.#look();
  }

  /**
   * At start: the files in the attachments folder whose work no longer needs them (a version before this
   * one kept every file until the technician switched sites). Resolves when they have gone.
   */
  async considerAll(): Promise<void> {
    let kept: Set<string>;
    try {
      kept = new Set(await fs.promises.readdir(this.deps.attachmentsDir));
    } catch {
      return;
    }
    if (this.#closed) return;
    // One read for them all (thousands of photos are kept for the reports), then each is looked at as a change is.
    for (const { id, file } of this.deps.store.attachmentFiles.noLongerNeeded()) if (kept.has(file)) this.consider(id);
    await this.#looking;
  }

  /** Waits for a look under way (the database closes next); nothing more is looked at. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#toLook.clear();
    await this.#looking;
  }

  async #look(): Promise<void> {
    try {
      // The turn's transactions have committed.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.#toLook.size > 0 && !this.#closed) {
        const ids = [...this.#toLook];
        this.#toLook.clear();
        if (!(await this.deps.store.allOnDisk())) return;
        for (const id of ids) {
          if (this.#closed) return;
          const file = this.deps.store.attachmentFiles.fileNoLongerNeeded(id);
          // Only a name of our own making (`keptFileName`: the id first), in the folder itself.
          if (file === null || !file.startsWith(id) || path.basename(file) !== file) continue;
          await fs.promises.rm(path.join(this.deps.attachmentsDir, file), { force: true });
        }
      }
    } catch (error) {
      // Kept, then: looked at again at the next start.
      this.deps.log(`An attached file no longer needed could not be deleted: ${(error as Error).message}`);
    } finally {
      this.#looking = null;
      if (this.#toLook.size > 0 && !this.#closed) this.#looking = this.#look();
    }
  }
}
