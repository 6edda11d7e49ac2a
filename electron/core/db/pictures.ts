import fs from 'node:fs';
import { PICTURE_MIGRATIONS } from './migrations/index.ts';
import { migrate, type Db } from './open.ts';
import { ownerDatabaseFile } from './owner-only.ts';

/**
 * Attaches the pictures database (`pictures.*` on the library's connection). Its content can always be
 * downloaded again, so it trades durability for speed (synchronous=NORMAL: a power cut may lose the
 * last pictures, never corrupt the file) and a damaged file is moved aside and started afresh rather
 * than stopping the app. `recreated` tells the caller to re-queue the pictures the index still lists.
 */
export function attachPictures(db: Db, file: string, log: (message: string) => void): { recreated: boolean } {
  let recreated = !fs.existsSync(file);
  try {
    open(db, file);
  } catch (error) {
    if (!isDamaged(error)) throw error;
    setAsidePictures(db, file, (error as Error).message, log);
    recreated = true;
  }
  return { recreated };
}

/**
 * SQLite's full check of the attached pictures database (every page of the table and its index, the
 * chains of pages each picture spans): what is wrong, or null. Run when a read or a write failed as
 * damaged: the first page alone (what opening reads) says nothing of a page deep in the file.
 */
export function picturesDamage(db: Db): string | null {
  try {
    const rows = db.pragma('pictures.integrity_check(5)') as { integrity_check: string }[];
    const problems = rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    return problems.length === 0 ? null : problems.join('; ');
  } catch (error) {
    if (isDamaged(error)) return (error as Error).message;
    throw error;
  }
}

/** Moves a damaged pictures database aside (never deleted) and attaches a new, empty one in its place. */
export function setAsidePictures(db: Db, file: string, cause: string, log: (message: string) => void): void {
  detach(db);
  const aside = `${file}.damaged-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  log(`The pictures database was damaged (${cause}); moved to ${aside}, its pictures download again.`);
  open(db, file);
}

function open(db: Db, file: string): void {
  ownerDatabaseFile(file);
  db.prepare('ATTACH DATABASE ? AS pictures').run(file);
  // Before the first table: lets evictions give pages back (PRAGMA pictures.incremental_vacuum).
  db.pragma('pictures.auto_vacuum = INCREMENTAL');
  db.pragma('pictures.journal_mode = WAL');
  db.pragma('pictures.synchronous = NORMAL');
  migrate(db, file, PICTURE_MIGRATIONS, 'pictures');
  // Reads the first page of the table: a file that is not a database, or a broken one, fails here.
  db.prepare('SELECT count(*) FROM (SELECT 1 FROM pictures.picture LIMIT 1)').get();
}

function detach(db: Db): void {
  try {
    db.exec('DETACH DATABASE pictures');
  } catch {
    // never attached
  }
}

function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}
