import type { Db } from '../db/types.ts';
import { getGuideRow } from './repo.ts';

/**
 * The guide and its prerequisites, their prerequisites too, each once: whose steps a work session on the
 * guide goes through, and whose step forms `GET /step_forms/guideid/{id}` answers (reference 4.10).
 */
export function withPrerequisites(db: Db, guideid: number): number[] {
  const seen = new Set<number>();
  const queue = [guideid];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const row = getGuideRow(db, id);
    if (row) queue.push(...(JSON.parse(row.prerequisites) as number[]));
  }
  return [...seen];
}

/** Whether a step is one a work session on the guide goes through: the guide's own, or a prerequisite's. */
export function isStepOfSession(db: Db, guideid: number, stepid: number): boolean {
  const step = db.prepare('SELECT guideid FROM steps WHERE stepid = ?').pluck().get(stepid) as number | undefined;
  return step !== undefined && withPrerequisites(db, guideid).includes(step);
}
