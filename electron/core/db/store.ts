import fs from 'node:fs';
import path from 'node:path';
import type { WorkCheck } from './journal-restore.ts';
import { openConnection, type Db } from './open.ts';
import { isDamage } from './damage.ts';
import { isDiskFailure } from './disk-space.ts';
import { ownerFolder } from './owner-only.ts';
import { attachPictures, picturesDamage, setAsidePictures } from './pictures.ts';
import { CategoriesRepo } from './repos/categories-repo.ts';
import { ConflictsRepo } from './repos/conflicts-repo.ts';
import { GuideMarksRepo } from './repos/guide-marks-repo.ts';
import { GuidesRepo } from './repos/guides-repo.ts';
import { MediaRepo } from './repos/media-repo.ts';
import { OutboxRepo } from './repos/outbox-repo.ts';
import { PicturesRepo } from './repos/pictures-repo.ts';
import { QuizzesRepo } from './repos/quizzes-repo.ts';
import { SearchRepo } from './repos/search-repo.ts';
import { SessionsRepo } from './repos/sessions-repo.ts';
import { SettingsRepo } from './repos/settings-repo.ts';
import { SiteModulesRepo } from './repos/site-modules-repo.ts';
import { AttachmentFilesRepo } from './repos/attachment-files-repo.ts';
import { CommentsRepo } from './repos/comments-repo.ts';
import { GuideReadsRepo } from './repos/guide-reads-repo.ts';
import { GuideReleasesRepo } from './repos/guide-releases-repo.ts';
import { SyncQueueRepo } from './repos/sync-queue-repo.ts';
import { TechniciansRepo } from './repos/technicians-repo.ts';
import { WorkKinds } from './repos/work-kinds.ts';
import { TranslationsRepo } from './repos/translations-repo.ts';
import { PrerequisitesRepo } from './repos/prerequisites-repo.ts';
import { RowGuard } from './row-guard.ts';
import { replaceableWrite, sql } from './statements.ts';
import { WalFlush } from './wal-flush.ts';
import type { WorkJournal } from './work-journal.ts';
import { openWork, type StartFindings } from './work-start.ts';

/** When the library was last moved into the database file (`settleLibrary`); the sync's own, not journaled. */
const SETTLED_KEY = 'sync.librarySettledAt';

export interface StoreOptions {
  /** The main database file (`fieldguide.sqlite`). */
  file: string;
  /** The pictures database, attached beside it (library/media-store.ts says why pictures live apart). */
  picturesFile: string;
  /** better-sqlite3 built for Electron's ABI (db/open.ts). */
  nativeBinding?: string;
  log: (message: string) => void;
  /** What the look at the files before this open found (data-folder.ts); none when not given. */
  findings?: StartFindings;
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
  readonly comments: CommentsRepo;
  readonly attachmentFiles: AttachmentFilesRepo;
  readonly guideReads: GuideReadsRepo;
  readonly guideReleases: GuideReleasesRepo;
  readonly translations: TranslationsRepo;
  readonly prerequisites: PrerequisitesRepo;
  readonly marks: GuideMarksRepo;
  /** True when the pictures database was made afresh (missing or damaged): the media index must be checked. */
  readonly picturesRecreated: boolean;
  /** What the check of the work at this start found and put back (db/journal-restore.ts). */
  readonly workCheck: WorkCheck;
  readonly #db: Db;
  readonly #journal: WorkJournal;
  readonly #picturesFile: string;
  readonly #wal: WalFlush;
  /** The journal write a replaceable commit left for later (`replaceable`), while one waits. */
  #journalSoon: NodeJS.Timeout | null = null;
  readonly #log: (message: string) => void;
  /** A write of the journal that failed after its commit, said once (the next write tries again). */
  #journalLagging = false;
  #diskFailed = false;
  /** While a technician's call runs its synchronous part (`deferFlushes`), and whether it committed. */
  #deferring = false;
  #flushOwed = false;

  constructor(options: StoreOptions) {
    this.file = options.file;
    this.#log = options.log;
    const db = openConnection(options.file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    try {
      const work = openWork(db, options.file, options.findings ?? { regression: null, salvaged: false }, options.log);
      [this.#journal, this.workCheck] = [work.journal, work.check];
      ownerFolder(path.dirname(options.picturesFile));
      this.picturesRecreated = attachPictures(db, options.picturesFile, options.log).recreated;
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#wal = new WalFlush(options.file);
    this.#picturesFile = options.picturesFile;
    const guard = new RowGuard(db, this.#journal, options.log);
    this.settings = new SettingsRepo(db, (key, problem) =>
      options.log(`Setting "${key}" could not be read (${problem}); using the default.`),
    );
    this.quizzes = new QuizzesRepo(db);
    this.search = new SearchRepo(db);
    this.translations = new TranslationsRepo(db);
    this.prerequisites = new PrerequisitesRepo(db);
    this.guides = new GuidesRepo(db, this.quizzes, this.search, this.translations, this.prerequisites);
    this.categories = new CategoriesRepo(db);
    this.media = new MediaRepo(db);
    this.pictures = new PicturesRepo(db);
    this.syncQueue = new SyncQueueRepo(db);
    this.sessions = new SessionsRepo(db, guard);
    const work = new WorkKinds();
    this.outbox = new OutboxRepo(db, guard, work);
    this.conflicts = new ConflictsRepo(db);
    this.technicians = new TechniciansRepo(db, work);
    this.siteModules = new SiteModulesRepo(db);
    this.marks = new GuideMarksRepo(db);
    this.comments = new CommentsRepo(db);
    this.attachmentFiles = new AttachmentFilesRepo(db);
    this.guideReads = new GuideReadsRepo(db);
    this.guideReleases = new GuideReleasesRepo(db);
  }

  /**
   * Runs `fn` in one transaction (inside another, as a savepoint of it) and answers what it answers. Its
   * commit is on the disk when it returns; in a technician's call (`deferFlushes`) when the call's answer goes.
   */
  transaction<T>(fn: () => T): T {
    const deferred = this.#deferring && !this.#db.inTransaction;
    const result = this.#failingDisk(() => (deferred ? replaceableWrite(this.#db, fn) : this.#db.transaction(fn)()));
    if (deferred) this.#flushOwed = true;
    this.#journalWrite();
    return result;
  }

  /**
   * Runs the synchronous part of a technician's call (invoke.ts), where the commits of `transaction` do not
   * wait for the disk on the main thread: `owed` says one was made, and `settle` then flushes the log on the
   * thread pool beside the work journal, before the answer goes. The answer waits for the slower of the two
   * flushes instead of both one after the other, and the main process answers the screens meanwhile. Nothing
   * leaves for the site before it is on the disk either way: an action is marked in flight by a flush of the
   * whole log first (`durable`).
   */
  deferFlushes<T>(fn: () => T): { value: T; owed: boolean } {
    const [deferring, owed] = [this.#deferring, this.#flushOwed];
    [this.#deferring, this.#flushOwed] = [true, false];
    try {
      const value = fn();
      return { value, owed: this.#flushOwed };
    } finally {
      [this.#deferring, this.#flushOwed] = [deferring, owed || this.#flushOwed];
    }
  }

  /**
   * A transaction for what the site can give again, or for a note a power cut may take back without harm
   * (when a picture was last shown, a guide opened): its commit does not wait for the disk (statements.ts),
   * and its rows of the work reach the journal with the next commit, an answer to the technician (`settle`)
   * or the end of the turn, whichever comes first: a replay's record of an answer goes with the next
   * action's in-flight mark, one journal write instead of two. Meanwhile the journal is behind the database
   * only by rows the site gives again, as the disk is behind this commit.
   */
  replaceable<T>(fn: () => T): T {
    const result = this.#failingDisk(() => replaceableWrite(this.#db, fn));
    this.#journalSoon ??= setTimeout(() => this.#journalWrite(), 0);
    return result;
  }

  /**
   * A transaction that is on the disk when the promise resolves, as `transaction`'s is when it returns,
   * without the main process waiting for the disk meanwhile: it commits without a flush, then the
   * write-ahead log is flushed on the thread pool (wal-flush.ts). Answers to the screens and to other
   * requests go on during that wait. A failed flush fails it (and the disk, as a failed commit does); a
   * process that stops before the flush ends has its commit (the OS holds it), not its promise.
   */
  async durable<T>(fn: () => T): Promise<T> {
    if (this.#db.inTransaction) throw new Error('A durable write cannot run inside another transaction.');
    const result = this.#failingDisk(() => replaceableWrite(this.#db, fn));
    this.#journalWrite();
    try {
      await this.#wal.flush();
    } catch (error) {
      if (isDiskFailure(error)) this.failDisk(error);
      throw error;
    }
    return result;
  }

  /**
   * Moves what the log holds into the database file (a checkpoint), once a sync or a guide kept now has
   * stored the library: a log lost or damaged later (a crash, a power cut) then takes back no guide that a
   * session needs. The work is in the work journal either way; the library was not, and a session whose
   * guide only the log held said "There is no guide 10 in the library" and could not go on offline. A
   * checkpoint that cannot finish (a full disk) leaves the log as it was: said, not thrown.
   */
  settleLibrary(): void {
    if (this.#diskFailed || this.#db.inTransaction) return;
    try {
      this.#db.pragma('main.wal_checkpoint(PASSIVE)');
      // The log begins again with a write of its own: its new header waits for the disk now, at the end of
      // the sync, not in the technician's next click (the first write after a checkpoint flushes it).
      replaceableWrite(this.#db, () => this.settings.set(SETTLED_KEY, Date.now()));
    } catch (error) {
      this.#log(`The library could not be moved into the database file yet: ${(error as Error).message}`);
    }
  }

  /** The disk refused a write or a flush (`failDisk`): nothing more is written until Fieldguide restarts. */
  get diskFailed(): boolean {
    return this.#diskFailed;
  }

  /**
   * The disk refused a write or a flush (disk-space.ts isDiskFailure): from now on this connection takes
   * no writes (query_only), so nothing more is acknowledged that the disk may not hold, whatever a later
   * flush answers (after a failed one, an OS may answer the next with success without writing). A restart
   * opens it afresh.
   */
  failDisk(error: unknown): void {
    if (this.#diskFailed) return;
    this.#diskFailed = true;
    this.#log(
      `This computer cannot write to its disk (${error instanceof Error ? error.message : String(error)}): ` +
        'Fieldguide saves nothing more until it restarts.',
    );
    try {
      this.#db.pragma('query_only = ON');
    } catch {
      // Every write fails on this disk anyway.
    }
  }

  #failingDisk<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (isDiskFailure(error)) this.failDisk(error);
      throw error;
    }
  }

  /**
   * The work journal holds every committed change of the work, on the disk, and with `walOwed` the log
   * holds a technician's call's commits (`deferFlushes`): awaited before an answer reaches the technician,
   * both flushes made side by side on the thread pool. Rejects when the disk cannot take it. Once the disk
   * failed nothing more is written (nothing more is committed either), and reads still answer.
   */
  async settle(walOwed = false): Promise<void> {
    if (this.#diskFailed) return;
    this.#journalTaken();
    // The log's flush whatever becomes of the journal's: on a full disk the commits are on the disk even when
    // the journal cannot be written (invoke.ts answers then, the database holding the work).
    const wal = walOwed ? this.#wal.flush() : Promise.resolve();
    let journal: Promise<void>;
    try {
      journal = this.#failingDisk(() => this.#journal.flush());
    } catch (error) {
      journal = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const flushed = await Promise.allSettled([wal, journal]);
    for (const flush of flushed) {
      if (flush.status === 'fulfilled') continue;
      if (isDiskFailure(flush.reason)) this.failDisk(flush.reason);
      throw flush.reason;
    }
    this.#journalLagging = false;
  }

  /**
   * Waits until every commit made so far is on the disk, in the log and in the work journal: what must hold
   * before something the database no longer needs is deleted (an attached file the site has). False when
   * the disk failed: a commit may then be held by nothing but the OS.
   */
  async allOnDisk(): Promise<boolean> {
    if (this.#diskFailed) return false;
    await this.settle(true);
    return !this.#diskFailed;
  }

  /** After a commit: the changed rows of the work go to the journal file (flushed by `settle`). */
  #journalWrite(): void {
    this.#journalTaken();
    if (this.#diskFailed) return;
    try {
      this.#journal.write();
    } catch (error) {
      // The commit stands; the journal catches up at the next write, and `settle` says what stops it.
      if (!this.#journalLagging)
        this.#log(`The work journal could not be written: ${error instanceof Error ? error.message : String(error)}`);
      this.#journalLagging = true;
    }
  }

  /** A journal write takes every change waiting: the one a replaceable commit left for later is not needed. */
  #journalTaken(): void {
    if (this.#journalSoon) clearTimeout(this.#journalSoon);
    this.#journalSoon = null;
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
      for (const table of ['outbox', 'conflicts', 'attachments', 'work_values', 'work_sessions', 'quiz_attempts'])
        sql(this.#db, `DELETE FROM ${table}`).run();
    });
  }

  close(): void {
    this.#journalTaken();
    try {
      this.#journal.sync();
    } catch (error) {
      this.#log(
        `The work journal could not be written at close: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.#journal.close();
    this.#wal.close();
    this.#db.close();
  }
}
