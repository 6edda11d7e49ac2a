/**
 * Three-way merge of step data per field (DESIGN.md §6), by `field_guid`:
 * - base: what the site had when the technician began editing the field;
 * - mine: what the technician saved;
 * - theirs: what the site has now.
 * Changes to different fields merge by themselves; the same field changed on both sides to different
 * values is a conflict the technician settles.
 */
export interface FieldChange {
  fieldGuid: string;
  base: string | null;
  mine: string | null;
}

export interface MergeResult {
  /** Still to send (the site has not got them, and nobody else changed them). */
  send: FieldChange[];
  /** The site already has exactly what the technician saved. */
  alreadyThere: FieldChange[];
  /** Changed on both sides to different values. */
  conflicts: (FieldChange & { theirs: string | null })[];
}

export function mergeStepData(
  changes: readonly FieldChange[],
  theirs: ReadonlyMap<string, string | null>,
): MergeResult {
  const result: MergeResult = { send: [], alreadyThere: [], conflicts: [] };
  for (const change of changes) {
    const current = theirs.has(change.fieldGuid) ? theirs.get(change.fieldGuid)! : null;
    if (current === change.mine) result.alreadyThere.push(change);
    else if (current === change.base) result.send.push(change);
    else result.conflicts.push({ ...change, theirs: current });
  }
  return result;
}
