import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** Which guides a stored guide needs first, in order (migration 0012): kept whole with it, stored again with them. */
export class PrerequisitesRepo {
  constructor(private readonly db: Db) {}

  /** What a guide stored now needs first (in the caller's transaction). */
  replace(guideid: number, prerequisites: readonly number[]): void {
    this.drop(guideid);
    const needs = sql(this.db, 'INSERT INTO guide_prerequisites (guideid, position, prerequisite) VALUES (?, ?, ?)');
    prerequisites.forEach((prerequisite, position) => needs.run(guideid, position, prerequisite));
  }

  drop(guideid: number): void {
    sql(this.db, 'DELETE FROM guide_prerequisites WHERE guideid = ?').run(guideid);
  }

  /**
   * The prerequisites of these guides, at any depth, as the guides kept whole say them: what the planner
   * keeps whole too, whatever the scope.
   */
  of(guideids: readonly number[]): number[] {
    if (guideids.length === 0) return [];
    return sql(
      this.db,
      `WITH RECURSIVE needed(guideid) AS (
         SELECT prerequisite FROM guide_prerequisites WHERE guideid IN (SELECT value FROM json_each(?))
         UNION SELECT p.prerequisite FROM guide_prerequisites p JOIN needed n ON n.guideid = p.guideid)
       SELECT guideid FROM needed`,
    )
      .pluck()
      .all(JSON.stringify(guideids)) as number[];
  }

  /** Stored guides that need one of these guides first: stored again with them (their steps open the guide's own). */
  neededBy(guideids: readonly number[]): { guideid: number; revisionid: number }[] {
    if (guideids.length === 0) return [];
    return sql(
      this.db,
      `SELECT DISTINCT g.guideid, g.revisionid FROM guide_prerequisites p JOIN guides g ON g.guideid = p.guideid
       WHERE p.prerequisite IN (SELECT value FROM json_each(?)) AND g.stored_revisionid IS NOT NULL`,
    ).all(JSON.stringify(guideids)) as { guideid: number; revisionid: number }[];
  }
}
