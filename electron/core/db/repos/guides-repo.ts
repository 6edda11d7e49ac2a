import type {
  GuideDetail,
  GuideListItem,
  LibraryPage,
  LibraryQuery,
  QuizRevision,
  StepForm,
  TagCount,
} from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import type { NeededAt } from './media-repo.ts';
import { listItemOf, readableBy, readDetail, THUMBNAIL_STORED, type GuideReader, type GuideRow } from './guide-row.ts';
import { LibraryPages } from './library-pages.ts';
import type { QuizzesRepo } from './quizzes-repo.ts';
import { dropUnpinnedRevisions, pinRevision } from './revision-pins.ts';
import type { SearchRepo } from './search-repo.ts';
import type { TranslationsRepo } from './translations-repo.ts';
import type { PrerequisitesRepo } from './prerequisites-repo.ts';

export type { StoredGuide, SummaryRow } from './guide-row.ts';
import type { StoredGuide, SummaryRow } from './guide-row.ts';

/** Guides, their stored revisions, forms, tags and media needs: the library's SQL. */
export class GuidesRepo {
  readonly #pages: LibraryPages;

  constructor(
    private readonly db: Db,
    private readonly quizzes: QuizzesRepo,
    private readonly search: SearchRepo,
    private readonly translations: TranslationsRepo,
    private readonly prerequisites: PrerequisitesRepo,
  ) {
    this.#pages = new LibraryPages(db);
  }

  upsertSummary(row: SummaryRow): void {
    sql(
      this.db,
      `INSERT INTO guides (guideid, revisionid, title, category, subject, type, summary, flags, image, public,
           author_userid, modified_date)
         VALUES (@guideid, @revisionid, @title, @category, @subject, @type, @summary, @flags, @image, @public,
           @authorUserid, @modifiedDate)
         ON CONFLICT(guideid) DO UPDATE SET revisionid = excluded.revisionid, title = excluded.title,
           category = excluded.category, subject = excluded.subject, type = excluded.type, summary = excluded.summary,
           flags = excluded.flags, image = excluded.image, public = excluded.public,
           author_userid = excluded.author_userid, modified_date = excluded.modified_date`,
    ).run({
      ...row,
      flags: JSON.stringify(row.flags),
      image: row.image ? JSON.stringify(row.image) : null,
      public: row.public ? 1 : 0,
    });
    // A guide with no stored content is found by its title and summary all the same.
    const stored = sql(this.db, 'SELECT stored_revisionid FROM guides WHERE guideid = ?').get(row.guideid) as {
      stored_revisionid: number | null;
    };
    if (stored.stored_revisionid === null)
      this.search.replace(row.guideid, { title: row.title, summary: row.summary, body: '' });
  }

  /** Tags of the stored guides this reader may see, most used first (at most 500: suggestions, not an index). */
  tags(reader: GuideReader | null): TagCount[] {
    const readable = readableBy(reader);
    return sql(
      this.db,
      `SELECT tag, count(*) AS guides FROM guide_tags
       WHERE guideid IN (SELECT guideid FROM guides WHERE ${readable.clause})
       GROUP BY tag ORDER BY guides DESC, tag LIMIT 500`,
    ).all(...readable.params) as TagCount[];
  }

  /** Whether this reader may see the guide (a private one: admins and its author). */
  readable(guideid: number, reader: GuideReader | null): boolean {
    const readable = readableBy(reader);
    return (
      sql(this.db, `SELECT 1 FROM guides WHERE guideid = ? AND ${readable.clause}`).get(guideid, ...readable.params) !==
      undefined
    );
  }

  /** The listed revision of a guide we know, for the listing to count what changed. */
  listedRevision(guideid: number): number | undefined {
    return (
      sql(this.db, 'SELECT revisionid FROM guides WHERE guideid = ?').get(guideid) as { revisionid: number } | undefined
    )?.revisionid;
  }

  /**
   * What the planner needs of the guides after `afterId` that the syncing technician may read: category,
   * listed and stored revisions (a page at a time). A private guide an admin synced is left as it is.
   */
  planningRows(
    afterId: number,
    limit: number,
    reader: GuideReader,
  ): { guideid: number; category: string; revisionid: number; stored: number | null }[] {
    const readable = readableBy(reader);
    return sql(
      this.db,
      `SELECT guideid, category, revisionid, stored_revisionid AS stored ` +
        `FROM guides WHERE guideid > ? AND ${readable.clause} ORDER BY guideid LIMIT ?`,
    ).all(afterId, ...readable.params, limit) as {
      guideid: number;
      category: string;
      revisionid: number;
      stored: number | null;
    }[];
  }

  /** Guides after `afterId` this reader may see: the site's listing for them answers whether they still exist. */
  knownIds(afterId: number, limit: number, reader: GuideReader): number[] {
    const readable = readableBy(reader);
    return (
      sql(this.db, `SELECT guideid FROM guides WHERE guideid > ? AND ${readable.clause} ORDER BY guideid LIMIT ?`).all(
        afterId,
        ...readable.params,
        limit,
      ) as {
        guideid: number;
      }[]
    ).map((r) => r.guideid);
  }

  count(): { total: number; offline: number } {
    return sql(this.db, 'SELECT count(*) AS total, count(stored_revisionid) AS offline FROM guides').get() as {
      total: number;
      offline: number;
    };
  }

  /** The guides stored whole (few while a big site waits for its first choice: sync/first-scope.ts). */
  wholeIds(limit: number): number[] {
    return (
      sql(this.db, 'SELECT guideid FROM guides WHERE stored_revisionid IS NOT NULL ORDER BY guideid LIMIT ?').all(
        limit,
      ) as { guideid: number }[]
    ).map((row) => row.guideid);
  }

  /** Stores a whole guide in one transaction with its forms, quizzes, tags, search row and media needs. */
  storeGuide(guide: StoredGuide, now: number): void {
    const { detail } = guide;
    this.db.transaction(() => {
      sql(
        this.db,
        'INSERT OR REPLACE INTO guide_revisions (guideid, revisionid, detail, stored_at) VALUES (?, ?, ?, ?)',
      ).run(detail.guideid, detail.revisionid, JSON.stringify(detail), now);
      sql(this.db, 'UPDATE guides SET stored_revisionid = ? WHERE guideid = ?').run(detail.revisionid, detail.guideid);
      dropUnpinnedRevisions(this.db, detail.guideid, detail.revisionid);

      sql(this.db, 'DELETE FROM step_forms WHERE guideid = ?').run(detail.guideid);
      const insertForm = sql(
        this.db,
        'INSERT OR REPLACE INTO step_forms (form_revisionid, guideid, stepid, form) VALUES (?, ?, ?, ?)',
      );
      for (const form of guide.forms)
        insertForm.run(form.formRevisionid, detail.guideid, form.stepid, JSON.stringify(form));

      // What it needs first, in order: kept whole with it, and the guide is stored again when one changes.
      this.prerequisites.replace(
        detail.guideid,
        detail.prerequisites.map((prereq) => prereq.guideid),
      );
      // Its texts in other languages were made from the revision stored before: read again at the next sync.
      this.translations.drop(detail.guideid);

      sql(this.db, 'DELETE FROM guide_quizzes WHERE guideid = ?').run(detail.guideid);
      const link = sql(
        this.db,
        'INSERT OR REPLACE INTO guide_quizzes (guideid, quizid, quiz_revisionid) VALUES (?, ?, ?)',
      );
      for (const quiz of guide.quizzes) {
        this.quizzes.storeQuiz(quiz);
        link.run(detail.guideid, quiz.quizid, quiz.quizRevisionid);
      }

      sql(this.db, 'DELETE FROM guide_tags WHERE guideid = ?').run(detail.guideid);
      const tag = sql(this.db, 'INSERT OR IGNORE INTO guide_tags (guideid, tag) VALUES (?, ?)');
      for (const name of detail.tags) tag.run(detail.guideid, name);

      this.search.replace(detail.guideid, guide.searchText);

      sql(this.db, 'DELETE FROM media_refs WHERE guideid = ?').run(detail.guideid);
      const ref = sql(this.db, 'INSERT OR IGNORE INTO media_refs (guideid, url, needed_at) VALUES (?, ?, ?)');
      // A URL met again keeps the earliest rank it was given (a video's poster that is also a list picture),
      // and stays shown once a view showed it (migration 0021).
      const media = sql(
        this.db,
        "INSERT INTO media (url, status, rank, zoom_only) VALUES (?, 'pending', ?, ?) " +
          'ON CONFLICT(url) DO UPDATE SET rank = min(rank, excluded.rank), ' +
          'zoom_only = min(zoom_only, excluded.zoom_only)',
      );
      const first = new Set(guide.mediaOrder?.first);
      const last = new Set(guide.mediaOrder?.last);
      const rankOf = (url: string, neededAt: NeededAt): number =>
        first.has(url) ? 0 : last.has(url) || neededAt !== 'always' ? 2 : 1;
      // What is always needed first: a URL that is both (a site serving one file for two sizes) stays always needed.
      const refs: [string, NeededAt][] = [
        ...guide.mediaUrls.map((url): [string, NeededAt] => [url, 'always']),
        ...(guide.zoomUrls?.large ?? []).map((url): [string, NeededAt] => [url, 'large']),
        ...(guide.zoomUrls?.original ?? []).map((url): [string, NeededAt] => [url, 'original']),
      ];
      for (const [url, neededAt] of refs) {
        ref.run(detail.guideid, url, neededAt);
        media.run(url, rankOf(url, neededAt), neededAt === 'always' ? 0 : 1);
      }
    })();
  }

  /** Keeps only the summary of a guide that left the offline scope (its media become evictable). */
  dropContent(guideid: number): void {
    this.db.transaction(() => {
      sql(this.db, 'UPDATE guides SET stored_revisionid = NULL WHERE guideid = ?').run(guideid);
      dropUnpinnedRevisions(this.db, guideid, null);
      sql(this.db, 'DELETE FROM step_forms WHERE guideid = ?').run(guideid);
      sql(this.db, 'DELETE FROM guide_quizzes WHERE guideid = ?').run(guideid);
      sql(this.db, 'DELETE FROM media_refs WHERE guideid = ?').run(guideid);
      this.prerequisites.drop(guideid);
      this.translations.drop(guideid);
      const row = sql(this.db, 'SELECT title, summary FROM guides WHERE guideid = ?').get(guideid) as
        { title: string; summary: string } | undefined;
      if (row) this.search.replace(guideid, { title: row.title, summary: row.summary, body: '' });
    })();
  }

  /**
   * The site no longer has this guide. The revision an unfinished
   * session follows stays, forms and all (revision-pins.ts).
   */
  deleteGuide(guideid: number): void {
    this.db.transaction(() => {
      dropUnpinnedRevisions(this.db, guideid, null);
      const tables = ['guides', 'step_forms', 'guide_quizzes', 'guide_tags', 'media_refs', 'sync_queue'];
      tables.push('guide_prerequisites', 'guide_releases');
      for (const table of tables) {
        sql(this.db, `DELETE FROM ${table} WHERE guideid = ?`).run(guideid);
      }
      this.search.remove(guideid);
      this.translations.drop(guideid);
    })();
  }

  /** Empties the library (another site); answers the media files to delete. */
  resetAll(): string[] {
    return this.db.transaction(() => {
      const files = (
        sql(this.db, 'SELECT DISTINCT file FROM media WHERE file IS NOT NULL').all() as { file: string }[]
      ).map((r) => r.file);
      const tables = ['guides', 'guide_revisions', 'guide_tags', 'step_forms', 'quiz_revisions', 'guide_quizzes'];
      tables.push('categories', 'guide_search', 'media', 'media_refs', 'sync_queue', 'guide_prerequisites');
      tables.push('guide_translations', 'guide_search_translated', 'guide_releases');
      for (const table of tables) sql(this.db, `DELETE FROM ${table}`).run();
      return files;
    })();
  }

  getDetail(guideid: number): GuideDetail | undefined {
    const row = sql(
      this.db,
      'SELECT r.detail FROM guides g JOIN guide_revisions r ON r.guideid = g.guideid ' +
        'AND r.revisionid = g.stored_revisionid WHERE g.guideid = ?',
    ).get(guideid) as { detail: string } | undefined;
    return row ? readDetail(row.detail) : undefined;
  }

  /** A kept revision of a guide (the current one, or one an unfinished session pins). */
  getRevision(guideid: number, revisionid: number): GuideDetail | undefined {
    const row = sql(this.db, 'SELECT detail FROM guide_revisions WHERE guideid = ? AND revisionid = ?').get(
      guideid,
      revisionid,
    ) as { detail: string } | undefined;
    return row ? readDetail(row.detail) : undefined;
  }

  getListItem(guideid: number): GuideListItem | undefined {
    const row = sql(this.db, `SELECT g.*, ${THUMBNAIL_STORED} FROM guides g WHERE guideid = ?`).get(guideid) as
      GuideRow | undefined;
    return row ? listItemOf(row) : undefined;
  }

  /** The list entry of a guide with its summary text (kept for every guide, whole or not). */
  getSummary(guideid: number): (GuideListItem & { summary: string }) | undefined {
    const row = sql(this.db, `SELECT g.*, ${THUMBNAIL_STORED} FROM guides g WHERE guideid = ?`).get(guideid) as
      (GuideRow & { summary: string }) | undefined;
    return row ? { ...listItemOf(row), summary: row.summary } : undefined;
  }

  /** The stored forms of a guide's steps, newest revision per step. */
  formsOfGuide(guideid: number): StepForm[] {
    const rows = sql(
      this.db,
      `SELECT form FROM step_forms f WHERE guideid = ?
           AND form_revisionid = (SELECT max(form_revisionid) FROM step_forms g
                                  WHERE g.guideid = f.guideid AND g.stepid = f.stepid)`,
    ).all(guideid) as { form: string }[];
    return rows.map((r) => JSON.parse(r.form) as StepForm);
  }

  /** Keeps a guide's stored revision for a session that follows it, ended too (revision-pins.ts). */
  pin = (guideid: number, revisionid: number, reason: string): void =>
    pinRevision(this.db, guideid, revisionid, reason);

  /** A page of the guides this reader may see. */
  list(query: LibraryQuery, categories: string[] | null, reader: GuideReader | null): LibraryPage {
    return this.#pages.page(query, categories, reader);
  }
}
