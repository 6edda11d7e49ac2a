/**
 * How many seeds a seeded test runs (fault schedules, kills, damaged files, races): `full` in `npm test`
 * and CI; with FIELDGUIDE_SEEDS=quick (`npm run test:quick`, the edit loop) a few, enough to run every path
 * once, not enough to find a rare interleaving. The full count is what proves the property.
 */
export function seedCount(full: number, quick = Math.min(full, 2)): number {
  const mode = process.env.FIELDGUIDE_SEEDS;
  if (mode === undefined || mode === '' || mode === 'full') return full;
  if (mode === 'quick') return quick;
  throw new Error(`FIELDGUIDE_SEEDS is "${mode}": it takes quick or full`);
}

/**
 * The time limit of a seeded test: a guard against a hang, not a speed limit. The full counts take minutes
 * on an idle machine and several times that beside other work (npm run test:busy, a shared CI machine).
 */
export const SEEDED_TIMEOUT_MS = 3_600_000;

/**
 * The first seed of a seeded test: the one it is written with, which CI runs every time, or that plus
 * FIELDGUIDE_SEED_START=<n>, to look among runs CI never makes for a rare interleaving or damage (how the
 * page-damage test's UTF-8 case was found). A failure names its seed; the same start makes it again.
 */
export function seedStart(fixed: number): number {
  const start = process.env.FIELDGUIDE_SEED_START;
  if (start === undefined || start === '') return fixed;
  if (!/^\d{1,9}$/.test(start)) throw new Error(`FIELDGUIDE_SEED_START is "${start}": it takes a whole number`);
  return fixed + Number(start);
}
