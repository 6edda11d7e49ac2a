import type { DatabaseRepair } from '../../contract.ts';
import type { Inspection } from './damage.ts';
import type { WorkCheck } from './journal-restore.ts';
import { copyOwnerFile } from './owner-only.ts';

// What a start that found the database damaged tells the technician (the sync centre) and the log.

/** What is told about the start's repair, if anything was found. */
export function repairOf(
  found: Inspection | null,
  salvaged: DatabaseRepair | null,
  logCopy: string,
  check: WorkCheck,
  now: number,
): DatabaseRepair | null {
  if (salvaged) {
    const cause = [salvaged.cause, ...check.findings].join('; ');
    // A whole journal put back every action, technician and setting, and the open work, the damaged file
    // could not give: what is still missing of those tables is finished work, which the site has.
    const whole = new Set(check.complete ? ['outbox', 'technicians', 'settings'] : []);
    const open = new Set(
      check.complete ? ['work_sessions', 'work_values', 'attachments', 'conflicts', 'quiz_attempts'] : [],
    );
    const unreadable = salvaged.unreadable
      .filter((part) => !whole.has(part))
      .map((part) => (open.has(part) ? `${part} (of finished work, which the site has)` : part));
    return { ...salvaged, cause, restored: check.restored, unreadable: [...unreadable, ...check.unrecoverable] };
  }
  if (check.findings.length === 0 && check.unrecoverable.length === 0) return null;
  const tookNothing = Object.keys(check.restored).length === 0 && check.unrecoverable.length === 0;
  // A write cut short at the log's end, nothing of the work missing: the unfinished save was never confirmed.
  const cutOnly = found?.kind === 'log' && found.cutShort === true && tookNothing && check.findings.length === 1;
  return {
    kind: cutOnly ? 'log-cut' : 'restored',
    at: Math.floor(now / 1000),
    cause: check.findings.join('; '),
    movedTo: logCopy,
    recovered: {},
    restored: check.restored,
    unreadable: check.unrecoverable,
  };
}

/** The repair in the log's words. */
export function said(repair: DatabaseRepair): string {
  const restored = Object.entries(repair.restored)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  const journal = restored ? `; put back from the work journal: ${restored}` : '';
  const lost = repair.unreadable.length > 0 ? ` Could not be put back: ${repair.unreadable.join(', ')}.` : '';
  switch (repair.kind) {
    case 'salvaged':
      return (
        `The database was damaged (${repair.cause}); it was moved to ${repair.movedTo} and the technicians' work ` +
        `recovered into a new one${journal}.${lost}`
      );
    case 'log-cut':
      return (
        `The database's write-ahead log was cut short (${repair.cause}); SQLite keeps every complete change. ` +
        `A copy of the log is at ${repair.movedTo}.`
      );
    case 'restored':
      return `The database's work was damaged (${repair.cause})${journal || '; nothing of it was lost'}.${lost}`;
  }
}

/** A log SQLite will not read whole: a copy kept aside (when the disk has room); the journal puts back what it held. */
export function copyLogAside(file: string, now: number): string {
  const copy = `${file}-wal.cut-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  try {
    copyOwnerFile(`${file}-wal`, copy);
    return copy;
  } catch {
    return '';
  }
}
