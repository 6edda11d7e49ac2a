import type { Db } from '../db/types.ts';
import { getUser, userJson } from '../users/repo.ts';

/** A release note of one revision of a guide (what an author writes when they publish it). */
export interface NewRelease {
  guideid: number;
  revisionid: number;
  userid: number | null;
  title: string;
  notes: string;
  at: number;
  type?: 'major' | 'minor';
}

interface ReleaseRow {
  releaseid: number;
  guideid: number;
  revisionid: number;
  userid: number | null;
  title: string;
  notes: string;
  type: string;
  init_date: number;
  release_date: number;
  locale: string;
}

export function insertRelease(db: Db, release: NewRelease): number {
  const result = db
    .prepare(
      `INSERT INTO guide_releases (guideid, revisionid, userid, title, notes, type, init_date, release_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      release.guideid,
      release.revisionid,
      release.userid,
      release.title,
      release.notes,
      release.type ?? 'minor',
      release.at,
      release.at,
    );
  return Number(result.lastInsertRowid);
}

/** The release object of dozuki-api-2.0.md §2.6, newest first. */
export function releasesJson(db: Db, origin: string, guideid: number) {
  const rows = db
    .prepare(
      `SELECT r.*, g.locale FROM guide_releases r JOIN guides g ON g.guideid = r.guideid
       WHERE r.guideid = ? ORDER BY r.revisionid DESC, r.releaseid DESC`,
    )
    .all(guideid) as ReleaseRow[];
  return rows.map((row, index) => {
    const user = row.userid === null ? undefined : getUser(db, row.userid);
    return {
      releaseid: row.releaseid,
      guideid: row.guideid,
      langid: row.locale,
      revisionid: row.revisionid,
      user: user ? userJson(db, user, origin) : null,
      status: 'released',
      title: row.title,
      init_date: row.init_date,
      release_date: row.release_date,
      notes: row.notes,
      type: row.type,
      href: `/api/2.0/guides/${row.guideid}/releases`,
      version: `${rows.length - index}`,
    };
  });
}
