import fs from 'node:fs';

// The write-ahead log and its index read as bytes, before any SQLite connection touches them: SQLite
// reads a log only up to its first frame whose checksum or salt fails, drops the rest without a word,
// and rebuilds the index (-shm) from what it read. Formats: https://www.sqlite.org/fileformat2.html#walformat

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const WAL_VERSION = 3007000;
const INDEX_HEADER = 48;
/** Two copies of the index header, then the checkpoint info whose first field is nBackfill. */
const INDEX_BYTES = INDEX_HEADER * 2 + 4;
const USER_VERSION_OFFSET = 60;

/** What the log holds, and what of it SQLite will not read. */
export interface LogReading {
  /** Frames of committed transactions SQLite will read. */
  committedFrames: number;
  /** Frames written to this log (its salts) that SQLite will not read: a write cut short, or damage. */
  droppedFrames: number;
  /** Whether frames of this log follow the first unreadable one: damage, not a write cut short at the end. */
  damagedMidway: boolean;
  /** The reason in words, or null when SQLite reads the whole log. */
  problem: string | null;
  /** The newest committed image of page 1 in the log (the database header), if the log holds one. */
  pageOne: Buffer | null;
  /** The log's salts, as the index records them. */
  salts: Buffer | null;
}

/** SQLite's checksum of a log: pairs of 32-bit words, big-endian when the magic's low bit says so. */
function checksum(data: Buffer, bigEndian: boolean, seed: [number, number]): [number, number] {
  let [s1, s2] = seed;
  for (let at = 0; at + 8 <= data.length; at += 8) {
    const x0 = bigEndian ? data.readUInt32BE(at) : data.readUInt32LE(at);
    const x1 = bigEndian ? data.readUInt32BE(at + 4) : data.readUInt32LE(at + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}

/** Reads the log frame by frame as SQLite's recovery does, and counts what it would drop. */
export function readLog(wal: string): LogReading | null {
  let fd: number;
  try {
    fd = fs.openSync(wal, 'r');
  } catch {
    return null;
  }
  try {
    return readOpenLog(fd, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}

function readOpenLog(fd: number, size: number): LogReading {
  const whole: LogReading = {
    committedFrames: 0,
    droppedFrames: 0,
    damagedMidway: false,
    problem: null,
    pageOne: null,
    salts: null,
  };
  if (size === 0) return whole;
  if (size < WAL_HEADER) return { ...whole, problem: `the write-ahead log is cut short (${size} bytes)` };
  const header = Buffer.alloc(WAL_HEADER);
  fs.readSync(fd, header, 0, WAL_HEADER, 0);
  const magic = header.readUInt32BE(0);
  const pageSize = header.readUInt32BE(8) === 1 ? 65_536 : header.readUInt32BE(8);
  const bigEndian = (magic & 1) === 1;
  const sound =
    (magic & ~1) >>> 0 === 0x377f0682 &&
    header.readUInt32BE(4) === WAL_VERSION &&
    pageSize >= 512 &&
    pageSize <= 65_536 &&
    (pageSize & (pageSize - 1)) === 0 &&
    checksum(header.subarray(0, 24), bigEndian, [0, 0]).every((sum, i) => sum === header.readUInt32BE(24 + 4 * i));
  if (!sound)
    return {
      ...whole,
      damagedMidway: true,
      problem: `the write-ahead log's header is damaged: SQLite would read none of its ${size} bytes`,
    };
  const salts = header.subarray(16, 24);
  const frameBytes = FRAME_HEADER + pageSize;
  const frames = Math.floor((size - WAL_HEADER) / frameBytes);
  const frame = Buffer.alloc(frameBytes);
  let sum = checksum(header.subarray(0, 24), bigEndian, [0, 0]);
  let [readable, committed, dropped, laterOfThisLog] = [true, 0, 0, false];
  let [pageOne, candidate]: [Buffer | null, Buffer | null] = [null, null];
  for (let index = 0; index < frames; index++) {
    fs.readSync(fd, frame, 0, frameBytes, WAL_HEADER + index * frameBytes);
    const ofThisLog = frame.subarray(8, 16).equals(salts);
    if (readable) {
      const next = checksum(frame.subarray(FRAME_HEADER), bigEndian, checksum(frame.subarray(0, 8), bigEndian, sum));
      readable =
        ofThisLog &&
        frame.readUInt32BE(0) !== 0 &&
        next[0] === frame.readUInt32BE(16) &&
        next[1] === frame.readUInt32BE(20);
      if (readable) {
        sum = next;
        if (frame.readUInt32BE(0) === 1) candidate = Buffer.from(frame.subarray(FRAME_HEADER));
        if (frame.readUInt32BE(4) !== 0) {
          committed = index + 1;
          pageOne = candidate ?? pageOne;
          candidate = null;
        }
        continue;
      }
      // The first frame SQLite will not read: the end of this log, unless it carries this log's salts.
      if (ofThisLog) dropped++;
    } else if (ofThisLog) {
      laterOfThisLog = true;
      dropped++;
    }
  }
  const partial = (size - WAL_HEADER) % frameBytes !== 0;
  // An unreadable frame that no frame of this log follows is what a write cut short at the end leaves
  // (or damage to the last write; the two look the same): only the unfinished transaction is dropped.
  const problem = laterOfThisLog
    ? `the write-ahead log is damaged: SQLite would stop reading it at frame ${committed + 1} ` +
      `and drop ${dropped} frame(s) written after it`
    : dropped > 0 || partial
      ? `the write-ahead log is cut short (${size} bytes; its last write was not finished)`
      : null;
  return {
    committedFrames: committed,
    droppedFrames: dropped,
    damagedMidway: laterOfThisLog,
    problem,
    pageOne,
    salts: Buffer.from(salts),
  };
}

/**
 * What the log's index (-shm) recorded, read before SQLite rebuilds it: how many frames the log held,
 * and how many of them were already in the database file.
 */
export interface IndexReading {
  frames: number;
  backfilled: number;
  salts: Buffer;
}

/** The index's header when both copies agree and its checksum holds; null otherwise (or no index). */
export function readLogIndex(shm: string): IndexReading | null {
  let bytes: Buffer;
  try {
    const fd = fs.openSync(shm, 'r');
    try {
      bytes = Buffer.alloc(INDEX_BYTES);
      if (fs.readSync(fd, bytes, 0, INDEX_BYTES, 0) < INDEX_BYTES) return null;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const first = bytes.subarray(0, INDEX_HEADER);
  // Written in the machine's own byte order (little-endian on the machines Fieldguide runs on).
  const sound =
    first.equals(bytes.subarray(INDEX_HEADER, INDEX_HEADER * 2)) &&
    first.readUInt32LE(0) === WAL_VERSION &&
    first[12] === 1 &&
    checksum(first.subarray(0, 40), false, [0, 0]).every((sum, i) => sum === first.readUInt32LE(40 + 4 * i));
  if (!sound) return null;
  return {
    frames: first.readUInt32LE(16),
    backfilled: bytes.readUInt32LE(INDEX_HEADER * 2),
    salts: Buffer.from(first.subarray(32, 40)),
  };
}

/**
 * A log that the index says held changes not yet in the database file, and that is gone, replaced or
 * shorter: what deleting the log after a crash leaves. Null when nothing is missing.
 */
export function missingLog(index: IndexReading | null, log: LogReading | null): string | null {
  if (!index || index.frames <= index.backfilled) return null;
  const waiting = index.frames - index.backfilled;
  if (!log || (log.committedFrames === 0 && !log.salts)) {
    return `the write-ahead log is missing: its index says it held ${waiting} page(s) not yet in the database`;
  }
  if (log.salts && !log.salts.equals(index.salts))
    return 'the write-ahead log was replaced: it is not the log its index describes';
  if (log.committedFrames < index.frames) {
    const readable = `${log.committedFrames} of ${index.frames} frames readable`;
    return `the write-ahead log is shorter than its index says (${readable})`;
  }
  return null;
}

/**
 * `PRAGMA user_version` as the database would answer it (the newest page 1 in the log, else the file's),
 * read without SQLite: opening a database read-write folds its log into it when the connection closes.
 */
export function userVersionOf(file: string, log: LogReading | null): number | null {
  if (log?.pageOne) return log.pageOne.readUInt32BE(USER_VERSION_OFFSET);
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const bytes = Buffer.alloc(4);
      return fs.readSync(fd, bytes, 0, 4, USER_VERSION_OFFSET) === 4 ? bytes.readUInt32BE(0) : null;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}
