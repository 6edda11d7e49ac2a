import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files go to the workers. Vitest runs the files it has timed longest first, and files it has
 * not timed (a fresh clone, as in CI) largest first. A seeded test (fault schedules, kills: `seedCount`) is
 * a short file that runs for minutes, so by size it went last, and CI waited for it alone after every
 * other file had ended (sync-faults: 124 s after the rest). Here the seeded files go first whenever
 * Vitest has not timed both files compared; the rest keep Vitest's order.
 */
export class SeededFirstSequencer extends BaseSequencer {
  private readonly seeded = new Map<string, boolean>();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cache = this.ctx.cache;
    const timed = (file: TestSpecification) =>
      cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`);
    // A stable sort: files of one kind keep Vitest's order among themselves.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => {
        if (a.file.project.name !== b.file.project.name) return a.index - b.index;
        if (timed(a.file) && timed(b.file)) return a.index - b.index;
        return Number(this.isSeeded(b.file)) - Number(this.isSeeded(a.file)) || a.index - b.index;
      })
      .map(({ file }) => file);
  }

  private isSeeded(file: TestSpecification): boolean {
    let seeded = this.seeded.get(file.moduleId);
    if (seeded === undefined) {
      seeded = /\bseedCount\(/.test(readFileSync(file.moduleId, 'utf8'));
      this.seeded.set(file.moduleId, seeded);
    }
    return seeded;
  }
}
