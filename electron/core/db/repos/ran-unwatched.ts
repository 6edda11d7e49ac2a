import type { RanUnwatched, UnwatchedStretch } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/**
 * The stretches in which a running session counted on while Fieldguide was closed or the laptop slept
 * (worklog/unwatched.ts): kept on the session's row until its technician says whether it was work.
 */
export class RanUnwatchedRepo {
  constructor(private readonly db: Db) {}

  /**
   * The sessions of every technician here whose clock runs now (started, not paused, suspended or ended), on this
   * computer: not one whose state last came from the site (worked on elsewhere: its clock is the site's).
   */
  running(): { id: string; startedAt: number; ran: RanUnwatched | null }[] {
    const rows = sql(
      this.db,
      `SELECT id, started_at, ran_unwatched FROM work_sessions
       WHERE status = 'started' AND paused_at IS NULL AND ended_at IS NULL AND state_from_site IS NULL`,
    ).all() as { id: string; started_at: number; ran_unwatched: string | null }[];
    return rows.map((row) => ({ id: row.id, startedAt: row.started_at, ran: readRan(row.ran_unwatched) }));
  }

  get(id: string): RanUnwatched | null {
    const json = sql(this.db, 'SELECT ran_unwatched FROM work_sessions WHERE id = ?').pluck().get(id);
    return readRan(json as string | null | undefined);
  }

  /** Sets the stretches (null: answered, or the technician went on in the session). */
  set(id: string, ran: RanUnwatched | null): void {
    const json = ran === null ? null : JSON.stringify(ran.stretches.map(({ from, to }) => ({ from, to })));
    sql(this.db, 'UPDATE work_sessions SET ran_unwatched = ? WHERE id = ? AND ran_unwatched IS NOT ?').run(
      json,
      id,
      json,
    );
  }
}

/** The stored stretches (a JSON array), or null for none; one that does not read as two times in order is left out. */
export function readRan(json: string | null | undefined): RanUnwatched | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const sound = (s: Partial<UnwatchedStretch> | null): s is UnwatchedStretch =>
    Number.isInteger(s?.from) && Number.isInteger(s?.to) && s!.to! > s!.from!;
  const stretches = (Array.isArray(value) ? (value as Partial<UnwatchedStretch>[]) : []).filter(sound);
  return stretches.length > 0 ? { stretches } : null;
}
