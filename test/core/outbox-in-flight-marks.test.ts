import { describe, expect, it } from 'vitest';
import { InFlightMarks } from '../../electron/core/outbox/in-flight-marks.ts';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('in-flight marks', () => {
  it('writes the marks taken in one turn in one commit, and none resolves before it', async () => {
    const commits: number[][] = [];
    const marks = new InFlightMarks((ids) => void commits.push([...ids]));
    const resolved: number[] = [];
    const first = [1, 2, 3].map((id) => marks.mark(id).then(() => resolved.push(id)));
    await Promise.resolve();
    expect(commits, 'nothing written within the turn').toEqual([]);
    expect(resolved).toEqual([]);
    await Promise.all(first);
    expect(commits).toEqual([[1, 2, 3]]);
    // A later turn's marks are a later commit.
    await marks.mark(4);
    expect(commits).toEqual([[1, 2, 3], [4]]);
  });

  it('a commit that fails fails every mark in it, and the next turn writes again', async () => {
    let full = true;
    const commits: number[][] = [];
    const marks = new InFlightMarks((ids) => {
      if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      commits.push([...ids]);
    });
    const outcomes = await Promise.allSettled([marks.mark(1), marks.mark(2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(commits).toEqual([]);
    full = false;
    await nextTurn();
    await marks.mark(3);
    expect(commits).toEqual([[3]]);
  });

  it('flush writes what waits at once, and the turn writes nothing more', async () => {
    const commits: number[][] = [];
    const marks = new InFlightMarks((ids) => void commits.push([...ids]));
    const both = Promise.all([marks.mark(1), marks.mark(2)]);
    marks.flush();
    expect(commits).toEqual([[1, 2]]);
    await both;
    marks.flush();
    await nextTurn();
    expect(commits, 'no empty commit').toEqual([[1, 2]]);
  });

  it('a write waiting for the disk off the main thread: none resolves before it, a failure fails all', async () => {
    const waits: { ids: number[]; done: () => void; fail: (error: Error) => void }[] = [];
    const marks = new InFlightMarks(
      (ids) =>
        new Promise<void>((done, fail) => {
          waits.push({ ids: [...ids], done, fail });
        }),
    );
    const resolved: number[] = [];
    const first = [1, 2].map((id) => marks.mark(id).then(() => resolved.push(id)));
    marks.flush();
    expect(waits.map((wait) => wait.ids)).toEqual([[1, 2]]);
    // Marks taken while the disk is busy with the first write go in a write of their own.
    const third = marks.mark(3);
    marks.flush();
    await nextTurn();
    expect(resolved, 'nothing leaves before the disk holds its mark').toEqual([]);
    waits[0]!.done();
    await Promise.all(first);
    expect(resolved).toEqual([1, 2]);
    waits[1]!.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(third).rejects.toMatchObject({ code: 'EIO' });
  });
});
