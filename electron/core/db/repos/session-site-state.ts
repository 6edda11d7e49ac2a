import type { HandedBack, WorkSession, WorkStatus, WorkTransition } from '../../../contract.ts';
import { SITE_DECIDED } from '../../../shared/site-decided.ts';
import { TRANSITIONS } from '../../../shared/worklog.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

// Where a session stands with the site, as its view tells it (sessions-repo.ts `view`): what the site decided of
// it, and whether its last change of state done here has reached the site.

/** The outbox kinds that change a session's state (stored by the transition's name), as SQL. */
const STATE_KINDS = ['start', ...TRANSITIONS].map((kind) => `'${kind}'`).join(', ');

/**
 * The site user of a session taken over on the site by someone the site would not name (the entry's read was
 * refused to its technician: worklog/handed-over-look.ts). No user of a site: their ids start at 1.
 */
export const UNNAMED_TAKER = 0;

/**
 * The newest record of what the site decided of the session (WorkSession.siteDecided), settled or not, while
 * the session still stands as the site decided it: cancelled, finished, someone else's, or removed there. None
 * for a session that is its own technician's again (taken back), nor from a record of another disagreement: a
 * walk saw a session finished here headed "suspended on the site", from an old "Session paused" card.
 */
export function siteDecided(
  db: Db,
  row: { id: string; status: WorkStatus; userid: number; technician?: number | null; removed_on_site?: number | null },
): WorkSession['siteDecided'] {
  const own = ownUserid(db, row.technician);
  const label =
    row.removed_on_site != null
      ? SITE_DECIDED.removed
      : own !== undefined && own !== row.userid
        ? `${SITE_DECIDED.takenOver} %`
        : row.status === 'cancelled' || row.status === 'complete'
          ? SITE_DECIDED[row.status]
          : null;
  if (label === null) return null;
  const found = sql(
    db,
    `SELECT label, theirs, message FROM conflicts WHERE session_id = ? AND kind = 'transition' AND label LIKE ?
     ORDER BY id DESC LIMIT 1`,
  ).get(row.id, label) as WorkSession['siteDecided'] | undefined;
  return found ?? null;
}

/**
 * What a colleague did with the session on the site before handing it back (WorkSession.handedBack), while it
 * stands as they left it: handed over, its technician's, not removed there. Taken back or taken over since, it is
 * not said. A value that does not read as one (a hand edit) is shown as none rather than breaking the view.
 */
export function handedBack(
  db: Db,
  row: { status: WorkStatus; userid: number; technician?: number | null; removed_on_site?: number | null },
  json: string | null | undefined,
): HandedBack | null {
  if (!json || row.status !== 'suspended' || row.removed_on_site != null) return null;
  if (ownUserid(db, row.technician) !== row.userid) return null;
  try {
    const value = JSON.parse(json) as HandedBack;
    return typeof value?.userid === 'number' && Array.isArray(value.changed) ? value : null;
  } catch {
    return null;
  }
}

/** The site user of the session's technician on this computer. */
const ownUserid = (db: Db, technician: number | null | undefined): number | undefined =>
  (sql(db, 'SELECT userid FROM technicians WHERE id = ?').get(technician ?? null) as { userid: number } | undefined)
    ?.userid;

/**
 * The session's last change of state still in the outbox (WorkSession.stateNotOnSite): refused when the site
 * refused it, held when a refused action of its chain stands before it; null when none waits.
 */
export function stateNotOnSite(db: Db, chain: string): WorkSession['stateNotOnSite'] {
  const found = sql(
    db,
    `SELECT id, kind, (SELECT min(id) FROM outbox WHERE chain = @chain AND state = 'failed') AS firstFailed
     FROM outbox WHERE chain = @chain AND kind IN (${STATE_KINDS}) ORDER BY id DESC LIMIT 1`,
  ).get({ chain }) as { id: number; kind: 'start' | WorkTransition; firstFailed: number | null } | undefined;
  if (!found) return null;
  const failed = found.firstFailed;
  return {
    action: found.kind,
    because: failed === found.id ? 'refused' : failed !== null && failed < found.id ? 'held' : 'waiting',
  };
}
