// The step each technician last had on screen in each session, so a session reopens where they left it
// (issue 28). Kept in this window's localStorage, per technician: a display position, not work to sync.
// Bounded: the most recent sessions only.
const PREFIX = 'fieldguide.lastStep.';
const KEPT = 200;

type Remembered = Record<string, number>;

function read(technician: string): Remembered {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PREFIX + technician) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Remembered) : {};
  } catch {
    return {};
  }
}

/** The stepid this technician last saw in this session, or null. */
export function lastStep(technician: string, sessionId: string): number | null {
  const stepid = read(technician)[sessionId];
  return typeof stepid === 'number' && Number.isInteger(stepid) ? stepid : null;
}

export function rememberStep(technician: string, sessionId: string, stepid: number): void {
  const kept = read(technician);
  delete kept[sessionId];
  kept[sessionId] = stepid;
  const ids = Object.keys(kept);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEPT))) delete kept[old];
  try {
    localStorage.setItem(PREFIX + technician, JSON.stringify(kept));
  } catch {
    // Storage refused (full, private mode): the session opens at its site's active step instead.
  }
}
