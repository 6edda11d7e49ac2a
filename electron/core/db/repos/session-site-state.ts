import type { WorkSession, WorkStatus, WorkTransition } from '../../../contract.ts';
import { isOpen, TRANSITIONS } from '../../../shared/worklog.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

// Where a session stands with the site, as its view tells it (sessions-repo.ts `view`): what the site decided of
// it, and whether its last change of state done here has reached the site.

/** The outbox kinds that change a session's state (stored by the transition's name), as SQL. */
const STATE_KINDS = ['start', ...TRANSITIONS].map((kind) => `'${kind}'`).join(', ');

/**
 * The newest record of what the site decided of the session (WorkSession.siteDecided), settled or not; none
 * for a session open here under its own technician again (taken back after a take-over: it is theirs to go on).
 */
export function siteDecided(
  db: Db,
  row: { id: string; status: WorkStatus; userid: number; technician?: number | null },
): WorkSession['siteDecided'] {
  if (isOpen(row.status)) {
    const own = sql(db, 'SELECT userid FROM technicians WHERE id = ?').get(row.technician ?? null) as
      { userid: number } | undefined;
    if (own?.userid === row.userid) return null;
  }
  const found = sql(
    db,
    `SELECT label, theirs, message FROM conflicts WHERE session_id = ? AND kind = 'transition'
     ORDER BY id DESC LIMIT 1`,
  ).get(row.id) as WorkSession['siteDecided'] | undefined;
  return found ?? null;
}

/**
 * The session's last change of state still in the outbox (WorkSession.stateNotOnSite), held when a refused
 * action of its chain stands at or before it; null when none waits.
 */
export function stateNotOnSite(db: Db, chain: string): WorkSession['stateNotOnSite'] {
  const found = sql(
    db,
    `SELECT id, kind, (SELECT min(id) FROM outbox WHERE chain = @chain AND state = 'failed') AS firstFailed
     FROM outbox WHERE chain = @chain AND kind IN (${STATE_KINDS}) ORDER BY id DESC LIMIT 1`,
  ).get({ chain }) as { id: number; kind: 'start' | WorkTransition; firstFailed: number | null } | undefined;
  if (!found) return null;
  return { action: found.kind, held: found.firstFailed !== null && found.firstFailed <= found.id };
}
