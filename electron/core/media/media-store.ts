import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

export class MediaLengthError extends Error {
  override readonly name = 'MediaLengthError';
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'application/pdf': '.pdf',
};

/** Files up to this size are read whole before writing; larger ones (videos) are streamed. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;

const nameOf = (sha256: string, mime: string): string => `${sha256}${EXTENSIONS[mime.split(';')[0]!.trim().toLowerCase()] ?? ''}`;

/**
 * Media files under one folder, named by the SHA-256 of their content (the same picture used by two
 * guides is kept once). A download goes to a temp file, its length checked against Content-Length,
 * then renamed into place: a crash or a cut connection never leaves a half file under a real name.
 * Media files are not fsync'd one by one (that cost a sync more than the transfer itself): they can be
 * downloaded again, so a file that power loss left short is caught by its length when it is next
 * served (LibraryService.resolveMedia) and queued again. A technician's own input is never treated so.
 */
export class MediaStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(path.join(dir, '.partial'), { recursive: true });
  }

  async write(body: ReadableStream<Uint8Array>, expectedLength: number | null, mime: string): Promise<{ file: string; bytes: number }> {
    if (expectedLength !== null && expectedLength <= SMALL_FILE_BYTES) return this.#writeSmall(body, expectedLength, mime);
    const temp = path.join(this.dir, '.partial', randomUUID());
    const hash = createHash('sha256');
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), counter, fs.createWriteStream(temp, { flags: 'wx' }));
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

  /** Most media are small: read whole, hashed and written in one go (no stream plumbing per file). */
  async #writeSmall(body: ReadableStream<Uint8Array>, expectedLength: number, mime: string): Promise<{ file: string; bytes: number }> {
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > expectedLength) {
        await reader.cancel();
        break;
      }
      chunks.push(value);
    }
    if (bytes !== expectedLength) throw new MediaLengthError(`expected ${expectedLength} bytes, got ${bytes}`);
    const data = Buffer.concat(chunks);
    const file = nameOf(createHash('sha256').update(data).digest('hex'), mime);
    const temp = path.join(this.dir, '.partial', randomUUID());
    try {
      await fs.promises.writeFile(temp, data, { flag: 'wx' });
      await fs.promises.rename(temp, path.join(this.dir, file));
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    return { file, bytes };
  }

  /** The absolute path of a stored file, or null for a name that would leave the folder. */
  pathOf(file: string): string | null {
    if (!/^[a-f0-9]{64}(\.[a-z0-9]{1,5})?$/.test(file)) return null;
    return path.join(this.dir, file);
  }

  async remove(file: string): Promise<void> {
    const full = this.pathOf(file);
    if (full) await fs.promises.rm(full, { force: true });
  }

  /** Temp files of downloads a crash interrupted. */
  clearPartial(): void {
    for (const name of fs.readdirSync(path.join(this.dir, '.partial'))) fs.rmSync(path.join(this.dir, '.partial', name), { force: true });
  }
}
