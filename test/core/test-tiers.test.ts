import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ViteUserConfig } from 'vitest/config';
import type { TestSpecification, Vitest } from 'vitest/node';
import config from '../../vitest.config.ts';
import { seedCount, seedStart } from '../helpers/seeds.ts';
import { SeededFirstSequencer } from '../helpers/sequencer.ts';

// The two tiers of tests (README, Commands): `npm test` runs everything with the full seed counts;
// `npm run test:quick` is its checks and its unit project with a few seeds. The README commands test does
// not run the quick tier inside the full one (it would repeat minutes of it), so its shape is checked here.
const root = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const steps = (script: string): string[] => script.split('&&').map((step) => step.trim());

describe('the quick tier of tests', () => {
  it("runs npm test's checks and its unit project, with FIELDGUIDE_SEEDS=quick, and nothing else", () => {
    const full = steps(scripts.test!);
    const quick = steps(scripts['test:quick']!);
    // The same unit project as the full tier's (its workers keep their modules from file to file in both:
    // vitest.config.ts), with fewer seeds.
    expect(quick).toContain('FIELDGUIDE_SEEDS=quick vitest run --project unit');
    expect(full).toContain('vitest run --project unit');
    for (const check of ['npm run format:check', 'npm run check:imports', 'npm run typecheck']) {
      expect(full).toContain(check);
      expect(quick).toContain(check);
    }
    expect(quick).toHaveLength(4);
  });

  it('lowers the seed counts with FIELDGUIDE_SEEDS=quick, keeps them full otherwise, and refuses a typo', () => {
    const before = process.env.FIELDGUIDE_SEEDS;
    try {
      delete process.env.FIELDGUIDE_SEEDS;
      expect(seedCount(200, 20)).toBe(200);
      process.env.FIELDGUIDE_SEEDS = 'full';
      expect(seedCount(200, 20)).toBe(200);
      process.env.FIELDGUIDE_SEEDS = 'quick';
      expect(seedCount(200, 20)).toBe(20);
      expect(seedCount(5)).toBe(2);
      process.env.FIELDGUIDE_SEEDS = 'quik';
      expect(() => seedCount(200, 20)).toThrow('FIELDGUIDE_SEEDS is "quik": it takes quick or full');
    } finally {
      if (before === undefined) delete process.env.FIELDGUIDE_SEEDS;
      else process.env.FIELDGUIDE_SEEDS = before;
    }
  });

  it('starts the seeds where the test says, or FIELDGUIDE_SEED_START further on, and refuses a typo', () => {
    const before = process.env.FIELDGUIDE_SEED_START;
    try {
      delete process.env.FIELDGUIDE_SEED_START;
      expect(seedStart(2403)).toBe(2403);
      process.env.FIELDGUIDE_SEED_START = '6486';
      expect(seedStart(2403)).toBe(8889);
      process.env.FIELDGUIDE_SEED_START = '-1';
      expect(() => seedStart(2403)).toThrow('FIELDGUIDE_SEED_START is "-1": it takes a whole number');
    } finally {
      if (before === undefined) delete process.env.FIELDGUIDE_SEED_START;
      else process.env.FIELDGUIDE_SEED_START = before;
    }
  });
});

describe('the order of test files', () => {
  // What Vitest knows on a fresh clone (CI): each file's size, no timings.
  const files = ['data-folder-damage', 'sync-faults', 'database-migrations', 'sync-kill'].map((name) =>
    path.join(root, 'test/core', `${name}.test.ts`),
  );
  const fresh = {
    config: { root },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: fs.statSync(path.join(root, key.slice('unit:'.length))).size }),
    },
  } as unknown as Vitest;
  const spec = (moduleId: string) =>
    ({
      moduleId,
      project: { name: 'unit', config: { isolate: false, sequence: { groupOrder: 0 } } },
    }) as TestSpecification;

  it('gives the seeded files (short, and minutes long) to the workers first on a fresh clone', async () => {
    expect((config as ViteUserConfig).test?.sequence?.sequencer).toBe(SeededFirstSequencer);
    const order = (await new SeededFirstSequencer(fresh).sort(files.map(spec))).map((f) => path.basename(f.moduleId));
    // The seeded ones first, each kind largest first, as Vitest orders files it has not timed (by their
    // sizes now: a file that grows moves within its kind). The seeded ones are the smaller: by size alone
    // they would go last.
    const size = (name: string) => fs.statSync(path.join(root, 'test/core', name)).size;
    const bySize = (names: string[]) => [...names].sort((a, b) => size(b) - size(a));
    const [seeded, others] = [
      bySize(['sync-faults.test.ts', 'sync-kill.test.ts']),
      bySize(['data-folder-damage.test.ts', 'database-migrations.test.ts']),
    ];
    expect(Math.max(...seeded.map(size))).toBeLessThan(Math.min(...others.map(size)));
    expect(order).toEqual([...seeded, ...others]);
  });
});
