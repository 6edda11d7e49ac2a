import type { ReleaseNote } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

interface ReleaseRow {
  releaseid: number;
  revisionid: number;
  title: string;
  notes: string;
  released_at: number | null;
  by_name: string | null;
}

/** The site's release notes of guides, as last read (issue 30): shown offline with what changed. */
export class GuideReleasesRepo {
  constructor(private readonly db: Db) {}

  /** The guide's release notes are now `releases` (the site's whole list; none where it has none). */
  replace(guideid: number, releases: readonly ReleaseNote[]): void {
    sql(this.db, 'DELETE FROM guide_releases WHERE guideid = ?').run(guideid);
    const insert = sql(
      this.db,
      `INSERT OR REPLACE INTO guide_releases (guideid, releaseid, revisionid, title, notes, released_at, by_name)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of releases) insert.run(guideid, r.releaseid, r.revisionid, r.title, r.notes, r.releasedAt, r.by);
  }

  /** The notes of the revisions after `fromRevisionid` up to `toRevisionid`, newest first. */
  between(guideid: number, fromRevisionid: number, toRevisionid: number): ReleaseNote[] {
    const rows = sql(
      this.db,
      `SELECT releaseid, revisionid, title, notes, released_at, by_name FROM guide_releases
       WHERE guideid = ? AND revisionid > ? AND revisionid <= ? ORDER BY revisionid DESC, releaseid DESC`,
    ).all(guideid, fromRevisionid, toRevisionid) as ReleaseRow[];
    return rows.map((row) => ({
      releaseid: row.releaseid,
      revisionid: row.revisionid,
      title: row.title,
      notes: row.notes,
      releasedAt: row.released_at,
      by: row.by_name,
    }));
  }
}
