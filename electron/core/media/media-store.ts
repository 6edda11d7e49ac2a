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

/**
 * Media files under one folder, named by the SHA-256 of their content (the same picture used by two
 * guides is kept once). A download is streamed to a temp file, its length checked against
 * Content-Length, then renamed into place: a crash or a cut connection never leaves a half file under
 * a real name.
 */
export class MediaStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(path.join(dir, '.partial'), { recursive: true });
  }

  async write(body: ReadableStream<Uint8Array>, expectedLength: number | null, mime: string): Promise<{ file: string; bytes: number }> {
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
      // `flush`: the file is fsync'd before it closes, so the rename below never publishes lost bytes.
      await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), counter, fs.createWriteStream(temp, { flags: 'wx', flush: true }));
      if (expectedLength !== null && bytes !== expectedLength) {
        throw new MediaLengthError(`expected ${expectedLength} bytes, got ${bytes}`);
      }
      const file = `${hash.digest('hex')}${EXTENSIONS[mime.split(';')[0]!.trim().toLowerCase()] ?? ''}`;
      await fs.promises.rename(temp, path.join(this.dir, file));
      return { file, bytes };
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
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
