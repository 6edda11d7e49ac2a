import type { GuideDetail } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { readableBy, readDetail, type GuideReader } from './guide-row.ts';

/** A guide kept in one language (migration 0013). */
export interface StoredTranslation {
  revisionid: number;
  /** The site had no translation: the detail is in the site's own language. */
  fallback: boolean;
  detail: GuideDetail;
}

/** Guides whole in the technicians' languages, and their search rows. */
export class TranslationsRepo {
  constructor(private readonly db: Db) {}

  store(
    translation: StoredTranslation & { langid: string; searchText: { title: string; summary: string; body: string } },
    now: number,
  ): void {
    const { detail, langid, searchText } = translation;
    this.db.transaction(() => {
      this.#dropOne(detail.guideid, langid);
      const row = sql(
        this.db,
        `INSERT INTO guide_translations (guideid, langid, revisionid, fallback, detail, stored_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(detail.guideid, langid, translation.revisionid, translation.fallback ? 1 : 0, JSON.stringify(detail), now);
      // A fallback is the site's own text, found by the search of the site's language already.
      if (translation.fallback) return;
      sql(this.db, 'INSERT INTO guide_search_translated (rowid, title, summary, body) VALUES (?, ?, ?, ?)').run(
        row.lastInsertRowid,
        searchText.title,
        searchText.summary,
        searchText.body,
      );
    })();
  }

  get(guideid: number, langid: string): StoredTranslation | undefined {
    const row = sql(
      this.db,
      'SELECT revisionid, fallback, detail FROM guide_translations WHERE guideid = ? AND langid = ?',
    ).get(guideid, langid) as { revisionid: number; fallback: number; detail: string } | undefined;
    return row
      ? { revisionid: row.revisionid, fallback: row.fallback === 1, detail: readDetail(row.detail) }
      : undefined;
  }

  /** Guides kept whole (after `afterId`, in id order) not yet read in `langid`: what a sync fetches in it. */
  missing(langid: string, afterId: number, limit: number, reader: GuideReader): number[] {
    const readable = readableBy(reader, 'g');
    return sql(
      this.db,
      `SELECT g.guideid FROM guides g WHERE g.guideid > ? AND g.stored_revisionid IS NOT NULL AND ${readable.clause}
         AND NOT EXISTS (SELECT 1 FROM guide_translations t WHERE t.guideid = g.guideid AND t.langid = ?)
       ORDER BY g.guideid LIMIT ?`,
    )
      .pluck()
      .all(afterId, ...readable.params, langid, limit) as number[];
  }

  /** The guide's texts in every language: made from a revision no longer stored. */
  drop(guideid: number): void {
    const langs = sql(this.db, 'SELECT langid FROM guide_translations WHERE guideid = ?')
      .pluck()
      .all(guideid) as string[];
    for (const langid of langs) this.#dropOne(guideid, langid);
  }

  #dropOne(guideid: number, langid: string): void {
    const rowid = sql(this.db, 'SELECT rowid FROM guide_translations WHERE guideid = ? AND langid = ?')
      .pluck()
      .get(guideid, langid) as number | undefined;
    if (rowid === undefined) return;
    sql(this.db, 'DELETE FROM guide_search_translated WHERE rowid = ?').run(rowid);
    sql(this.db, 'DELETE FROM guide_translations WHERE rowid = ?').run(rowid);
  }
}
