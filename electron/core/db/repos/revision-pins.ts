import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

// What a work session keeps of a guide (DESIGN.md §3): the revision it follows, with the step forms stored in
// it, even when the site revises or deletes the guide meanwhile. Kept after the session ends too: its summary
// and report read that revision's steps and fields (with the revised one they showed fields it never had and
// dropped its values). A revision is its text and forms, not its pictures (media_refs are the stored one's).

export function pinRevision(db: Db, guideid: number, revisionid: number, reason: string): void {
  sql(db, 'INSERT OR IGNORE INTO revision_pins (guideid, revisionid, reason) VALUES (?, ?, ?)').run(
    guideid,
    revisionid,
    reason,
  );
}

/** Every stored revision of a guide but `keep` and those a session pins. */
export function dropUnpinnedRevisions(db: Db, guideid: number, keep: number | null): void {
  sql(
    db,
    'DELETE FROM guide_revisions WHERE guideid = ? AND revisionid IS NOT ? ' +
      'AND revisionid NOT IN (SELECT revisionid FROM revision_pins WHERE guideid = ?)',
  ).run(guideid, keep, guideid);
}
