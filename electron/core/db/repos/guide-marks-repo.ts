import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** A mark a technician puts on a guide (migration 0017). */
export type GuideMark = 'favorite' | 'completed' | 'opened';

/** One marked guide and when it was marked (unix seconds). */
export interface MarkedGuide {
  guideid: number;
  at: number;
}

/** Each technician's favourites, completions and opened guides on this computer. */
export class GuideMarksRepo {
  constructor(private readonly db: Db) {}

  /** Sets or clears one mark; a mark set again keeps its first time unless `at` is given for an opening. */
  set(technician: number, mark: GuideMark, guideid: number, on: boolean, at: number): void {
    if (!on) {
      sql(this.db, 'DELETE FROM guide_marks WHERE technician = ? AND mark = ? AND guideid = ?').run(
        technician,
        mark,
        guideid,
      );
      return;
    }
    const keep = mark === 'opened' ? 'excluded.at' : 'guide_marks.at';
    sql(
      this.db,
      `INSERT INTO guide_marks (technician, mark, guideid, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (technician, mark, guideid) DO UPDATE SET at = ${keep}`,
    ).run(technician, mark, guideid, at);
  }

  has(technician: number, mark: GuideMark, guideid: number): boolean {
    return (
      sql(this.db, 'SELECT 1 FROM guide_marks WHERE technician = ? AND mark = ? AND guideid = ?').get(
        technician,
        mark,
        guideid,
      ) !== undefined
    );
  }

  /** One technician's guides with a mark, the latest first. */
  list(technician: number, mark: GuideMark, limit = 10_000): MarkedGuide[] {
    return sql(
      this.db,
      'SELECT guideid, at FROM guide_marks WHERE technician = ? AND mark = ? ORDER BY at DESC, guideid LIMIT ?',
    ).all(technician, mark, limit) as MarkedGuide[];
  }

  /** The guides a technician opened or worked on here (a session), the latest first. */
  recentlyUsed(technician: number, limit: number): MarkedGuide[] {
    return sql(
      this.db,
      `SELECT guideid, max(at) AS at FROM (
         SELECT guideid, at FROM guide_marks WHERE technician = @technician AND mark = 'opened'
         UNION ALL SELECT guideid, created_at AS at FROM work_sessions WHERE technician = @technician
       ) GROUP BY guideid ORDER BY at DESC, guideid LIMIT @limit`,
    ).all({ technician, limit }) as MarkedGuide[];
  }

  /** Guides any technician on this computer holds as a favourite: kept offline whatever the scope. */
  anyonesFavorites(): number[] {
    const rows = sql(this.db, "SELECT DISTINCT guideid FROM guide_marks WHERE mark = 'favorite' ORDER BY guideid");
    return (rows.all() as { guideid: number }[]).map((row) => row.guideid);
  }

  /**
   * The site's list of a technician's marks replaces theirs here, but for the guides in `waiting` (a toggle
   * of theirs not on the site yet): those stay as the technician left them.
   */
  replaceFromSite(
    technician: number,
    mark: GuideMark,
    site: readonly MarkedGuide[],
    waiting: ReadonlySet<number>,
  ): void {
    const here = new Set(this.list(technician, mark).map((row) => row.guideid));
    const there = new Set(site.map((row) => row.guideid));
    for (const guideid of here) {
      if (!there.has(guideid) && !waiting.has(guideid)) this.set(technician, mark, guideid, false, 0);
    }
    for (const row of site) {
      if (!waiting.has(row.guideid)) this.set(technician, mark, row.guideid, true, row.at);
    }
  }
}
