import path from 'node:path';
import { checkWork, type WorkCheck } from './journal-restore.ts';
import { upgrade, type Db } from './open.ts';
import { hasRowSums, installRowSums } from './row-sums.ts';
import { databaseSeq, readWorkJournal } from './journal-rows.ts';
import { WorkJournal } from './work-journal.ts';

export const JOURNAL_FILE = 'fieldguide.journal';

/** What the look at the files before SQLite opened them found (data-folder.ts): it decides which copy wins. */
export interface StartFindings {
  /** A damage of the log (or its loss) that may have taken the database back to an earlier state; null if none. */
  regression: string | null;
  /** The database was made afresh from a damaged one: the journal's rows win over what was salvaged. */
  salvaged: boolean;
}

/**
 * The work at start: checked against its checksums and the journal, and repaired, at the schema it was
 * written with; then the migrations; then the journal written anew from the open work, and its
 * triggers made, so every later change is journaled.
 */
export function openWork(
  db: Db,
  file: string,
  findings: StartFindings,
  log: (message: string) => void,
): { journal: WorkJournal; check: WorkCheck } {
  const journalFile = path.join(path.dirname(file), JOURNAL_FILE);
  const reading = readWorkJournal(journalFile);
  let check: WorkCheck = {
    findings: findings.regression ? [findings.regression] : [],
    restored: {},
    unrecoverable: [],
    complete: false,
  };
  if (hasRowSums(db)) {
    installRowSums(db);
    if (!reading && databaseSeq(db).seq > 0)
      log('The work journal was missing; it is written again from the database.');
    check = checkWork(db, reading, findings);
  }
  upgrade(db, file);
  installRowSums(db);
  const journal = new WorkJournal(db, journalFile, log);
  journal.install();
  try {
    journal.snapshot();
  } catch (error) {
    // A full disk: the journal goes on from its last whole record, and is written anew at a start with room.
    log(
      `The work journal could not be written anew (${error instanceof Error ? error.message : String(error)}); ` +
        'it goes on as it was.',
    );
    if (reading) journal.keepReadable(reading);
  }
  return { journal, check };
}
