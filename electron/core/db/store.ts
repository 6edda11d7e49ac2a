import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Db } from './open.ts';
import { isDamage } from './damage.ts';
import { attachPictures, picturesDamage, setAsidePictures } from './pictures.ts';
import { CategoriesRepo } from './repos/categories-repo.ts';
import { ConflictsRepo } from './repos/conflicts-repo.ts';
import { GuidesRepo } from './repos/guides-repo.ts';
import { MediaRepo } from './repos/media-repo.ts';
import { OutboxRepo } from './repos/outbox-repo.ts';
import { PicturesRepo } from './repos/pictures-repo.ts';
import { QuizzesRepo } from './repos/quizzes-repo.ts';
import { SearchRepo } from './repos/search-repo.ts';
import { SessionsRepo } from './repos/sessions-repo.ts';
import { SettingsRepo } from './repos/settings-repo.ts';
import { SiteModulesRepo } from './repos/site-modules-repo.ts';
import { SyncQueueRepo } from './repos/sync-queue-repo.ts';
import { TechniciansRepo } from './repos/technicians-repo.ts';
import { replaceableWrite, sql } from './statements.ts';

export interface StoreOptions {
  /** The main database file (`fieldguide.sqlite`). */
  file: string;
  /** The pictures database, attached beside it (library/media-store.ts says why pictures live apart). */
  picturesFile: string;
  /** better-sqlite3 built for Electron's ABI (db/open.ts). */
  nativeBinding?: string;
  log: (message: string) => void;
}

/**
 * The local database as the features see it: its repositories and transactions, never a connection.
 * SQL is written in core/db only; a feature that needs another query asks a repository for it.
 */
export class Store {
  readonly file: string;
  readonly settings: SettingsRepo;
  readonly guides: GuidesRepo;
  readonly search: SearchRepo;
  readonly categories: CategoriesRepo;
  readonly media: MediaRepo;
  readonly pictures: PicturesRepo;
  readonly syncQueue: SyncQueueRepo;
  readonly quizzes: QuizzesRepo;
  readonly sessions: SessionsRepo;
  readonly outbox: OutboxRepo;
  readonly conflicts: ConflictsRepo;
  readonly technicians: TechniciansRepo;
  readonly siteModules: SiteModulesRepo;
  /** True when the pictures database was made afresh (missing or damaged): the media index must be checked. */
  readonly picturesRecreated: boolean;
  readonly #db: Db;
  readonly #picturesFile: string;
  readonly #log: (message: string) => void;

  constructor(options: StoreOptions) {
    this.file = options.file;
    const db = openDatabase(options.file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    try {
      fs.mkdirSync(path.dirname(options.picturesFile), { recursive: true });
      this.picturesRecreated = attachPictures(db, options.picturesFile, options.log).recreated;
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#picturesFile = options.picturesFile;
    this.#log = options.log;
    this.settings = new SettingsRepo(db, (key, problem) => options.log(`Setting "${key}" could not be read (${problem}); using the default.`));
    this.quizzes = new QuizzesRepo(db);
    this.search = new SearchRepo(db);
    this.guides = new GuidesRepo(db, this.quizzes, this.search);
    this.categories = new CategoriesRepo(db);
    this.media = new MediaRepo(db);
    this.pictures = new PicturesRepo(db);
    this.syncQueue = new SyncQueueRepo(db);
    this.sessions = new SessionsRepo(db);
    this.outbox = new OutboxRepo(db);
    this.conflicts = new ConflictsRepo(db);
    this.technicians = new TechniciansRepo(db);
    this.siteModules = new SiteModulesRepo(db);
  }

  /** Runs `fn` in one transaction (inside another, as a savepoint of it) and answers what it answers. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }

  /** A transaction for what the site can give again: its commit does not wait for the disk (statements.ts). */
  replaceable<T>(fn: () => T): T {
    return replaceableWrite(this.#db, fn);
  }

  /**
   * After a read or a write failed as damaged: a full check of the pictures database, and when it is the
   * damaged one, it is set aside and made again (its pictures are the site's: they download again).
   * Answers whether it was.
   */
  repairPictures(): boolean {
    const damage = picturesDamage(this.#db);
    if (damage === null) return false;
    setAsidePictures(this.#db, this.#picturesFile, damage, this.#log);
    return true;
  }

  /** SQLite's quick check of the main database (every page read): what is wrong, or null. */
  mainDamage(): string | null {
    try {
      const rows = this.#db.pragma('main.quick_check(5)') as { quick_check: string }[];
      const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
      return problems.length === 0 ? null : problems.join('; ');
    } catch (error) {
      if (isDamage(error)) return (error as Error).message;
      throw error;
    }
  }

  /** The database's size on disk: its file and its write-ahead log. */
  bytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += fs.statSync(`${this.file}${suffix}`).size;
      } catch {
        // no WAL file right now
      }
    }
    return total;
  }

  /**
   * Forgets the technician's work of the previous site (all of it sent and settled: connection-methods.ts refuses
   * a switch before): sessions, their values and attachments, the outbox, conflicts and quiz attempts.
   */
  forgetWork(): void {
    this.transaction(() => {
      for (const table of ['outbox', 'conflicts', 'attachments', 'work_values', 'work_sessions', 'quiz_attempts']) sql(this.#db, `DELETE FROM ${table}`).run();
    });
  }

  close(): void {
    this.#db.close();
  }
}
