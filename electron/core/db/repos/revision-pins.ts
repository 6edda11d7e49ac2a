import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

// What an unfinished work session keeps of a guide (DESIGN.md §3): the revision it follows, with the step
// forms stored in it, until the session ends, even when the site revises or deletes the guide meanwhile.

export function pinRevision(db: Db, guideid: number, revisionid: number, reason: string): void {
  sql(db, 'INSERT OR IGNORE INTO revision_pins (guideid, revisionid, reason) VALUES (?, ?, ?)').run(
    guideid,
    revisionid,
    reason,
  );
}

/** The session ended: a revision it alone kept (since replaced, or of a guide the site deleted) goes. */
export function unpinRevisions(db: Db, reason: string): void {
  const pinned = sql(db, 'SELECT DISTINCT guideid FROM revision_pins WHERE reason = ?').all(reason) as {
    guideid: number;
  }[];
  sql(db, 'DELETE FROM revision_pins WHERE reason = ?').run(reason);
  for (const { guideid } of pinned) {
    const stored = sql(db, 'SELECT stored_revisionid AS id FROM guides WHERE guideid = ?').get(guideid) as
      { id: number | null } | undefined;
    dropUnpinnedRevisions(db, guideid, stored?.id ?? null);
  }
}

/** Every stored revision of a guide but `keep` and those a session pins. */
export function dropUnpinnedRevisions(db: Db, guideid: number, keep: number | null): void {
  sql(
    db,
    'DELETE FROM guide_revisions WHERE guideid = ? AND revisionid IS NOT ? ' +
      'AND revisionid NOT IN (SELECT revisionid FROM revision_pins WHERE guideid = ?)',
  ).run(guideid, keep, guideid);
}
