import type { OthersOpenSession, UserSummary } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { sameWorkOrder } from '../../../shared/worklog.ts';
import { TO_SETTLE } from './conflicts-repo.ts';
import { WORK, type WorkKinds } from './work-kinds.ts';

/** Someone whose work is on this computer: a site's user, known here by a local id. */
export interface TechnicianRow {
  id: number;
  /** `demo`, or the site's address. */
  site: string;
  userid: number;
  username: string;
  uniqueUsername: string | null;
  imageUrl: string | null;
  privileges: string[];
  /** Known when they signed in with e-mail and password (the switch screen signs them in again with it). */
  email: string | null;
  signedInAt: number | null;
  refusedAt: number | null;
}

interface Row extends Omit<TechnicianRow, 'privileges'> {
  privileges: string;
}

const SELECT = `SELECT id, site, userid, username, unique_username AS uniqueUsername, image_url AS imageUrl,
  privileges, email, signed_in_at AS signedInAt, refused_at AS refusedAt FROM technicians`;

const parse = (row: Row | undefined): TechnicianRow | undefined => {
  if (!row) return undefined;
  let privileges: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.privileges);
    if (Array.isArray(parsed)) privileges = parsed.filter((p): p is string => typeof p === 'string');
  } catch {
    // an unreadable list grants nothing
  }
  return { ...row, privileges };
};

/** What waits on this computer for each technician: actions not on the site yet, and conflicts to settle. */
export interface TechnicianWork {
  technician: number;
  unsent: number;
  failed: number;
  conflicts: number;
}

/** Technicians of this computer, and how much of their work waits. */
export class TechniciansRepo {
  constructor(
    private readonly db: Db,
    /** The kinds that are work: what is counted (work-kinds.ts). */
    private readonly workKinds: WorkKinds,
  ) {}

  /** Records a sign-in: the site's latest word on who they are; a refusal is forgotten. Answers the local id. */
  signedIn(site: string, user: UserSummary, email: string | null, now: number): number {
    sql(
      this.db,
      `INSERT INTO technicians (site, userid, username, unique_username, image_url, privileges, email, signed_in_at)
       VALUES (@site, @userid, @username, @uniqueUsername, @imageUrl, @privileges, @email, @now)
       ON CONFLICT (site, userid) DO UPDATE SET username = excluded.username,
         unique_username = excluded.unique_username, image_url = excluded.image_url,
         privileges = excluded.privileges, email = coalesce(excluded.email, email),
         signed_in_at = excluded.signed_in_at, refused_at = NULL`,
    ).run({ site, ...user, privileges: JSON.stringify(user.privileges), email: email?.toLowerCase() ?? null, now });
    return this.bySiteUser(site, user.userid)!.id;
  }

  /** The site's answer to "who am I", for someone already signed in. */
  refreshed(id: number, user: UserSummary): void {
    sql(
      this.db,
      'UPDATE technicians SET username = @username, unique_username = @uniqueUsername, ' +
        'image_url = @imageUrl, privileges = @privileges WHERE id = @id',
    ).run({
      id,
      ...user,
      privileges: JSON.stringify(user.privileges),
    });
  }

  get(id: number): TechnicianRow | undefined {
    return parse(sql(this.db, `${SELECT} WHERE id = ?`).get(id) as Row | undefined);
  }

  bySiteUser(site: string, userid: number): TechnicianRow | undefined {
    return parse(sql(this.db, `${SELECT} WHERE site = ? AND userid = ?`).get(site, userid) as Row | undefined);
  }

  byEmail(site: string, email: string): TechnicianRow | undefined {
    return parse(
      sql(this.db, `${SELECT} WHERE site = ? AND email = ?`).get(site, email.trim().toLowerCase()) as Row | undefined,
    );
  }

  /** The technicians of a site, most recently signed in first (those only known from older rows last). */
  ofSite(site: string): TechnicianRow[] {
    return (
      sql(this.db, `${SELECT} WHERE site = ? ORDER BY signed_in_at IS NULL, signed_in_at DESC, id`).all(site) as Row[]
    ).map((row) => parse(row)!);
  }

  setRefused(id: number, at: number | null): void {
    sql(this.db, 'UPDATE technicians SET refused_at = ? WHERE id = ?').run(at, id);
  }

  /**
   * Per technician with anything waiting: unsent actions (pending,
   * in flight or failed), failed ones and open conflicts.
   */
  work(): TechnicianWork[] {
    return sql(
      this.db,
      `SELECT technician, sum(unsent) AS unsent, sum(failed) AS failed, sum(conflicts) AS conflicts FROM (
         SELECT technician, count(*) AS unsent, count(*) FILTER (WHERE state = 'failed') AS failed, 0 AS conflicts
           FROM outbox WHERE technician IS NOT NULL AND ${WORK} GROUP BY technician
         UNION ALL
         SELECT technician, 0, 0, count(*) FROM conflicts WHERE ${TO_SETTLE} AND technician IS NOT NULL
           GROUP BY technician
       ) GROUP BY technician`,
    ).all(this.workKinds.params) as TechnicianWork[];
  }

  /**
   * The open sessions of a guide under a work order (`sameWorkOrder`, compared here: SQLite's lower() knows A-Z
   * only) of the other technicians of `technician`'s site, the newest first.
   */
  othersOpen(technician: number, guideid: number, workorderid: string): OthersOpenSession[] {
    const rows = sql(
      this.db,
      `SELECT t.username, s.workorderid, s.status, s.started_at AS startedAt
         FROM work_sessions s JOIN technicians t ON t.id = s.technician
        WHERE s.guideid = @guideid AND s.status NOT IN ('complete', 'cancelled') AND s.removed_on_site IS NULL
          AND s.technician != @technician
          AND t.site = (SELECT site FROM technicians WHERE id = @technician)
        ORDER BY s.started_at DESC, s.rowid DESC`,
    ).all({ technician, guideid }) as OthersOpenSession[];
    return rows.filter((row) => sameWorkOrder(row.workorderid, workorderid));
  }

  /** Actions of an earlier version whose maker is not known: kept, never sent. */
  heldAside(): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM outbox WHERE technician IS NULL').get() as { n: number }).n;
  }

  /** Forgets the technicians of other sites (their work was forgotten first); answers their ids. */
  forgetOtherSites(site: string): number[] {
    const gone = (sql(this.db, 'SELECT id FROM technicians WHERE site != ?').all(site) as { id: number }[]).map(
      (r) => r.id,
    );
    sql(this.db, 'DELETE FROM technicians WHERE site != ?').run(site);
    return gone;
  }
}
