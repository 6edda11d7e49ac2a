import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PicturesRepo } from '../db/repos/pictures-repo.ts';
import { ownerFolder, ownerWriteStream } from '../db/owner-only.ts';

export class MediaLengthError extends Error {
  override readonly name = 'MediaLengthError';
}

/** A download that passed the most it was allowed to take (`limit`): stopped there, nothing of it kept. */
export class MediaTooLargeError extends Error {
  override readonly name = 'MediaTooLargeError';
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
  }
}

/** The largest media file kept (a long video at the best encoding a site offers stays well under it). */
export const MEDIA_FILE_MAX_BYTES = 1024 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'application/pdf': '.pdf',
};

/** Pictures up to this size live in the pictures database; anything larger, and every video or document, in a file. */
export const PICTURE_MAX_BYTES = 1024 * 1024;

/** A content name: nothing else is ever read or removed, whatever the index says. */
const STORED_NAME = /^[a-f0-9]{64}(\.[a-z0-9]{1,5})?$/;
const baseMime = (mime: string): string => mime.split(';')[0]!.trim().toLowerCase();
const nameOf = (sha256: string, mime: string): string => `${sha256}${EXTENSIONS[baseMime(mime)] ?? ''}`;
const isPicture = (mime: string, bytes: number): boolean =>
  baseMime(mime).startsWith('image/') && bytes <= PICTURE_MAX_BYTES;

/** Whether bytes are what their content name says: the name is their SHA-256. */
export function matchesName(file: string, data: Buffer): boolean {
  return createHash('sha256').update(data).digest('hex') === file.slice(0, 64);
}

/** A download read and named, not yet kept: a picture's bytes, or a file already renamed into place. */
export interface Received {
  file: string;
  bytes: number;
  picture: Buffer | null;
}

/** What the shells serve for a stored name: a picture's bytes, or the path of a file. */
export type StoredContent = { data: Buffer; path?: never } | { path: string; data?: never };

/**
 * Downloaded media, named by the SHA-256 of their content (the same picture used by two guides is kept
 * once), in two places:
 * - pictures (images up to 1 MiB: the thumbnails and step images of every guide) in `pictures.sqlite`,
 *   attached to the library's connection. Thousands of small files cost a sync more than their transfer
 *   (a file created, written, renamed per picture; far worse where an antivirus scans each new file);
 *   rows in one database cost a page write each and are kept in the same transaction that indexes them.
 *   SQLite reads blobs of this size faster than the file system does (sqlite.org/fasterthanfs.html).
 * - videos, documents and large images in files: streamed to a temp file, length checked against
 *   Content-Length, renamed into place, so a crash or a cut connection never leaves a half file under a
 *   real name. They are not fsync'd one by one: they can be downloaded again, and a file that power loss
 *   left short is caught by its length when next served (stored-media.ts) and queued again.
 * Their names are checked against their bytes (`matchesName`, `fileIntact`): a picture each time it is
 * read, a file the first time it is served in a run; one that does not match is dropped and downloaded
 * again, never served.
 */
export class MediaStore {
  /** Files found intact in this run, with the size and change time they had then. */
  readonly #intact = new Map<string, string>();

  constructor(
    readonly dir: string,
    private readonly pictures: PicturesRepo,
  ) {
    ownerFolder(dir);
    ownerFolder(path.join(dir, '.partial'));
  }

  /**
   * Reads a download: a picture into memory (kept later by `keep`), anything else into its file. It stops
   * as soon as more than `maxBytes` arrived (a body without Content-Length, or longer than it said), so a
   * site can never write past the room it was given.
   */
  async receive(
    body: AsyncIterable<Uint8Array>,
    expectedLength: number | null,
    mime: string,
    maxBytes = MEDIA_FILE_MAX_BYTES,
  ): Promise<Received> {
    if (expectedLength === null || !isPicture(mime, expectedLength)) {
      return { ...(await this.#receiveFile(body, expectedLength, mime, maxBytes)), picture: null };
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > expectedLength) break; // leaving the loop cancels the download
      chunks.push(chunk);
    }
    if (bytes !== expectedLength) throw new MediaLengthError(`expected ${expectedLength} bytes, got ${bytes}`);
    const picture = Buffer.concat(chunks, bytes);
    return { file: nameOf(createHash('sha256').update(picture).digest('hex'), mime), bytes, picture };
  }

  /** The size of stored content as it is now (-1 for a file that is missing). */
  sizeOf(content: StoredContent): number {
    if (content.data) return content.data.length;
    try {
      return fs.statSync(content.path).size;
    } catch {
      return -1;
    }
  }

  /** Keeps a received picture; call it in the transaction that indexes it. Files are already in place. */
  keep(received: Received): void {
    if (received.picture) this.pictures.keep(received.file, received.picture);
  }

  /** The content of a stored name, or null when it is not here (or the name would leave the folder). */
  read(file: string): StoredContent | null {
    if (!STORED_NAME.test(file)) return null;
    const data = this.pictures.read(file);
    if (data) return { data };
    return { path: path.join(this.dir, file) };
  }

  /**
   * Whether a stored file's bytes are what its name says, read through once a run (a file changed since,
   * by size or change time, is read again). A picture kept in the database is checked as it is read.
   */
  async fileIntact(file: string): Promise<boolean> {
    if (!STORED_NAME.test(file)) return false;
    const where = path.join(this.dir, file);
    let stamp: string;
    try {
      const stat = await fs.promises.stat(where);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return false;
    }
    if (this.#intact.get(file) === stamp) return true;
    const hash = createHash('sha256');
    try {
      for await (const chunk of fs.createReadStream(where)) hash.update(chunk as Buffer);
    } catch {
      return false;
    }
    const intact = hash.digest('hex') === file.slice(0, 64);
    if (intact) this.#intact.set(file, stamp);
    return intact;
  }

  /** Drops a stored name whose content is damaged, now: its picture row or its file. */
  drop(file: string): void {
    if (!STORED_NAME.test(file)) return;
    this.#intact.delete(file);
    if (!this.pictures.remove(file)) fs.rmSync(path.join(this.dir, file), { force: true });
  }

  /** Forgets a stored name: its picture row or its file (a crash just before leaves a picture the next sweep drops). */
  async remove(file: string): Promise<void> {
    if (!STORED_NAME.test(file)) return;
    if (this.pictures.remove(file)) return;
    await fs.promises.rm(path.join(this.dir, file), { force: true });
  }

  /** Drops pictures no index row names and gives the pages of removed pictures back to the disk. */
  sweep(): void {
    this.pictures.sweep();
  }

  /** Temp files of downloads a crash interrupted. */
  clearPartial(): void {
    for (const name of fs.readdirSync(path.join(this.dir, '.partial')))
      fs.rmSync(path.join(this.dir, '.partial', name), { force: true });
  }

  async #receiveFile(
    body: AsyncIterable<Uint8Array>,
    expectedLength: number | null,
    mime: string,
    maxBytes: number,
  ): Promise<{ file: string; bytes: number }> {
    const temp = path.join(this.dir, '.partial', randomUUID());
    const hash = createHash('sha256');
    let bytes = 0;
    const cap = Math.min(maxBytes, expectedLength ?? Number.POSITIVE_INFINITY);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bytes += chunk.length;
        // Past the cap the pipeline fails, which cancels the download: nothing more is read or written.
        if (bytes > cap)
          callback(
            bytes > maxBytes
              ? new MediaTooLargeError(maxBytes)
              : new MediaLengthError(`expected ${expectedLength} bytes, got more`),
          );
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(Readable.from(body, { objectMode: false }), counter, ownerWriteStream(temp));
      if (expectedLength !== null && bytes !== expectedLength) {
        throw new MediaLengthError(`expected ${expectedLength} bytes, got ${bytes}`);
      }
      const file = nameOf(hash.digest('hex'), mime);
      await fs.promises.rename(temp, path.join(this.dir, file));
      return { file, bytes };
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }
}

/** Where a data folder keeps its media. */
export const mediaDirOf = (dataDir: string): string => path.join(dataDir, 'media');
