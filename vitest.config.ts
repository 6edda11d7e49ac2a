import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SeededFirstSequencer } from './test/helpers/sequencer.ts';

// Two projects: `unit` (pure logic, and integration against the real reference server over real HTTP
// and real SQLite files) and `e2e` (Chromium through the web shell; needs `npm run build` first), which
// also holds test/commands: the README's commands run as written, busy ports, the packed app (their ports
// come from the OS and their folders are their own, so files of both run side by side). test/security
// holds the attacks of issue 14: over real HTTP in `unit`, in Chromium (`*.e2e.test.ts`) in `e2e`. The time
// limits guard against a hang, not a slow machine: tests wait for conditions, and a machine running other
// work beside them (npm run test:busy, a shared CI runner) takes several times as long: at 30 s, set-ups and
// tests of the outbox and of the data folder's lock were cut off there at a load of 30.
// Workers (measured on this 2-core machine, issue 27): the unit files wait more than they compute (sites,
// fault stalls, commits), so two per core fill the waits. The e2e files wait too (a site held, a tiny bench's
// timers, Chromium's frames): with one per core the machine stood idle a quarter of the time. On this 2-core
// machine, alone, the same tree: 709 s with two, 580 s with three (idle 18%; each file 20–30% slower, far from
// its limits), 618 s with four. (Earlier, with fewer waiting files: three took 493 and 573 s, two 567 and 578.)
// Isolation: a worker keeps the modules it loaded from file to file (`isolate: false`). Loading them anew
// for each file took 183 s of the unit project's 1,377 s and its CPU 17 min against 11 (8 min 55 s against
// 5 min 12 s and 5 min 41 s of wall time here), and 80 s of the e2e project's 1,060: CI went past its 20
// minutes. A file that sets a global the app's modules keep (the renderer's bridge) takes fresh copies of
// them (vi.resetModules); a test leaning on what an earlier file left behind fails in the runs where another
// file came first (files go to workers as they free up), not never.
const UNIT_WORKERS = Math.max(2, 2 * os.availableParallelism());
const E2E_WORKERS = Math.max(1, Math.ceil(1.5 * os.availableParallelism()));

export default defineConfig({
  test: {
    pool: 'forks',
    // Seeded tests (short files that run for minutes) first on a fresh clone: test/helpers/sequencer.ts.
    sequence: { sequencer: SeededFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'test/core/**/*.test.ts',
            'test/server/**/*.test.ts',
            'test/renderer/**/*.test.ts',
            'test/shared/**/*.test.ts',
            'test/shell/**/*.test.ts',
            'test/fault/**/*.test.ts',
            'test/security/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, 'test/security/**/*.e2e.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: UNIT_WORKERS,
          isolate: false,
          globalSetup: [
            'test/helpers/openapi-check-global.ts',
            'test/helpers/memory-tmp-global.ts',
            'test/helpers/picture-dir-global.ts',
          ],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/security/**/*.e2e.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // A page's state is polled for up to 10 s, not vitest's 1 s: under CI's load a send still out as
          // the Sync centre opened said "Sending…" past the second (outbox-no-answer failed on the shared
          // runner, never alone). A state that never comes still fails the test.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['test/helpers/openapi-check-global.ts', 'test/helpers/picture-dir-global.ts'],
          maxWorkers: E2E_WORKERS,
          isolate: false,
        },
      },
    ],
  },
});
