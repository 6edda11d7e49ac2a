import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// An append-only file of records, each framed as [length u32 BE][CRC-32 u32 BE][JSON body]: a record
// cut short at the end (a crash while appending) or changed on the disk fails its CRC and ends the
// reading there, so nothing half-written or damaged is ever believed.

const FRAME = 8;

export interface JournalReading {
  records: unknown[];
  /** Bytes read as whole records; the file's size when it was read to its end. */
  readBytes: number;
  size: number;
}

/** Every whole record from the start to the first one that is cut short or fails its CRC. */
export function readJournal(file: string): JournalReading | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
  const records: unknown[] = [];
  let at = 0;
  while (at + FRAME <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const body = bytes.subarray(at + FRAME, at + FRAME + length);
    if (body.length !== length || zlib.crc32(body) !== bytes.readUInt32BE(at + 4)) break;
    try {
      records.push(JSON.parse(body.toString('utf8')));
    } catch {
      break;
    }
    at += FRAME + length;
  }
  return { records, readBytes: at, size: bytes.length };
}

function frame(record: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(record), 'utf8');
  const head = Buffer.alloc(FRAME);
  head.writeUInt32BE(body.length, 0);
  head.writeUInt32BE(zlib.crc32(body), 4);
  return Buffer.concat([head, body]);
}

/** The journal file as it is written: appends, a wait for the disk when asked, and a whole new file. */
export class JournalFile {
  #fd: number | null = null;
  #unsynced = false;
  #size = 0;
  /** The flush on the thread pool that is out now (`flush`), if one is. */
  #flushing: Promise<void> | null = null;
  /** Flushes out now, and the handles closed meanwhile: each is closed once none is out (never reused under one). */
  #flushesOut = 0;
  #closeWhenIdle: number[] = [];

  constructor(readonly file: string) {}

  get size(): number {
    return this.#size;
  }

  /**
   * Appends records with one write; on the disk once `sync` returns. A write that fails part-way (a full
   * disk) is cut back off, so the records appended after it are not hidden behind a broken one.
   */
  append(records: readonly unknown[]): void {
    if (records.length === 0) return;
    const bytes = Buffer.concat(records.map(frame));
    const fd = this.#open();
    let written = 0;
    try {
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      if (written > 0) fs.ftruncateSync(fd, this.#size);
      throw error;
    }
    this.#size += bytes.length;
    this.#unsynced = true;
  }

  /** Keeps the first `bytes` of the file: what was read as whole records. */
  truncate(bytes: number): void {
    fs.ftruncateSync(this.#open(), bytes);
    this.#size = bytes;
  }

  #open(): number {
    if (this.#fd === null) {
      this.#fd = fs.openSync(this.file, 'a', 0o600);
      this.#size = fs.fstatSync(this.#fd).size;
    }
    return this.#fd;
  }

  /** Waits for the disk to hold what was appended (fdatasync), when anything was. */
  sync(): void {
    if (!this.#unsynced || this.#fd === null) return;
    fs.fdatasyncSync(this.#fd);
    this.#unsynced = false;
  }

  /**
   * Resolves once the disk holds what was appended, the wait made on the thread pool: a flush of its own
   * when anything was appended since the last one began, else the one out now (which covers it).
   */
  flush(): Promise<void> {
    if (!this.#unsynced || this.#fd === null) return this.#flushing ?? Promise.resolve();
    const fd = this.#fd;
    this.#unsynced = false;
    this.#flushesOut++;
    const flushing = new Promise<void>((resolve, reject) => {
      fs.fdatasync(fd, (error) => {
        this.#flushesOut--;
        if (this.#flushing === flushing) this.#flushing = null;
        this.#closeIdle();
        if (!error) return resolve();
        // What it was to flush is not known to be on the disk: the next flush (or `sync`) tries again.
        this.#unsynced = true;
        reject(error);
      });
    });
    this.#flushing = flushing;
    return flushing;
  }

  /** Replaces the file with these records: written beside it, flushed, renamed over it, the folder flushed. */
  replace(records: readonly unknown[]): void {
    const temp = `${this.file}.new`;
    const bytes = Buffer.concat(records.map(frame));
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.close();
    fs.renameSync(temp, this.file);
    syncFolder(path.dirname(this.file));
    this.#size = bytes.length;
  }

  close(): void {
    if (this.#fd !== null) this.#closeWhenIdle.push(this.#fd);
    this.#fd = null;
    this.#unsynced = false;
    this.#closeIdle();
  }

  #closeIdle(): void {
    if (this.#flushesOut > 0) return;
    for (const fd of this.#closeWhenIdle.splice(0)) fs.closeSync(fd);
  }
}

/** A rename is durable once its folder is flushed (POSIX; Windows has no folder handles to flush). */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(folder, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
