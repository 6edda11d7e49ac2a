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
