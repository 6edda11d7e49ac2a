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
    detach(db);
    const aside = `${file}.damaged-${Date.now()}`;
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
    }
    log(`The pictures database was damaged (${(error as Error).message}); moved to ${aside}, its pictures download again.`);
    open(db, file);
    recreated = true;
  }
  return { recreated };
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
