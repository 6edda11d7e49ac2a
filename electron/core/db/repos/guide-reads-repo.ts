import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { dropUnpinnedRevisions, pinRevision } from './revision-pins.ts';

const reason = (technician: number) => `read:${technician}`;

/** The revision of each guide each technician last read or worked, kept until they have seen what changed. */
export class GuideReadsRepo {
  constructor(private readonly db: Db) {}

  /** The revision this technician last read of a guide, or null: never read here. */
  revisionRead(technician: number, guideid: number): number | null {
    const row = sql(this.db, 'SELECT revisionid FROM guide_reads WHERE technician = ? AND guideid = ?').get(
      technician,
      guideid,
    ) as { revisionid: number } | undefined;
    return row?.revisionid ?? null;
  }

  /**
   * They read (or have seen the change to) `revisionid`: it is remembered and kept; the one they read
   * before goes unless something else keeps it.
   */
  read(technician: number, guideid: number, revisionid: number, now: number): void {
    const before = this.revisionRead(technician, guideid);
    sql(
      this.db,
      `INSERT INTO guide_reads (technician, guideid, revisionid, read_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (technician, guideid) DO UPDATE SET revisionid = excluded.revisionid, read_at = excluded.read_at`,
    ).run(technician, guideid, revisionid, now);
    pinRevision(this.db, guideid, revisionid, reason(technician));
    if (before === null || before === revisionid) return;
    sql(this.db, 'DELETE FROM revision_pins WHERE guideid = ? AND revisionid = ? AND reason = ?').run(
      guideid,
      before,
      reason(technician),
    );
    const stored = sql(this.db, 'SELECT stored_revisionid AS id FROM guides WHERE guideid = ?').get(guideid) as
      { id: number | null } | undefined;
    dropUnpinnedRevisions(this.db, guideid, stored?.id ?? null);
  }

  /** Someone on this laptop last read the guide in another revision than `revisionid` (the one coming). */
  readInAnother(guideid: number, revisionid: number): boolean {
    return (
      sql(this.db, 'SELECT 1 FROM guide_reads WHERE guideid = ? AND revisionid != ? LIMIT 1').get(
        guideid,
        revisionid,
      ) !== undefined
    );
  }

  /** The guides stored here in a newer revision than the one this technician last read. */
  changed(technician: number): number[] {
    return (
      sql(
        this.db,
        `SELECT r.guideid FROM guide_reads r JOIN guides g ON g.guideid = r.guideid
         WHERE r.technician = ? AND g.stored_revisionid IS NOT NULL AND g.stored_revisionid != r.revisionid`,
      ).all(technician) as { guideid: number }[]
    ).map((r) => r.guideid);
  }
}
