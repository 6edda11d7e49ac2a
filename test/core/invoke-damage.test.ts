import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatcher, type StorageGuard } from '../../electron/core/invoke.ts';
import type { BoundMethod } from '../../electron/core/methods.ts';

// What the technician is told when SQLite reports damage while the app runs (issue 24, item 7): a restart
// only when the next start will repair something; a pictures database made again at once is not one.
const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });

function failingOnce(): { impl: Record<string, BoundMethod>; calls: () => number } {
  let calls = 0;
  const getStatus: BoundMethod = {
    input: z.tuple([]),
    call: async () => {
      calls++;
      if (calls === 1) throw corrupt;
      return { ok: true, value: 'status' };
    },
  };
  return { impl: { getStatus }, calls: () => calls };
}

const guard = (found: ReturnType<StorageGuard['damaged']>): StorageGuard => ({
  full: () => false,
  refused: () => {},
  damaged: () => found,
  failed: () => {},
  settle: () => Promise.resolve(),
  deferFlushes: (fn) => ({ value: fn(), owed: false }),
});

describe('damage found while running', () => {
  it('repaired at once (the pictures database): the call goes again and succeeds, nothing said', async () => {
    const { impl, calls } = failingOnce();
    expect(await dispatcher(impl, { log: () => {}, guard: guard('repaired') })('getStatus', [])).toEqual({
      ok: true,
      value: 'status',
    });
    expect(calls()).toBe(2);
  });

  it('in the main database: a restart, which repairs it', async () => {
    const answer = await dispatcher(failingOnce().impl, { log: () => {}, guard: guard('restart') })('getStatus', []);
    expect(answer).toMatchObject({ ok: false, error: { message: expect.stringContaining('Restart Fieldguide') } });
  });

  it('not found by a full check: no restart asked for, nothing set aside', async () => {
    const { impl, calls } = failingOnce();
    const answer = await dispatcher(impl, { log: () => {}, guard: guard('none') })('getStatus', []);
    expect(answer).toMatchObject({ ok: false, error: { message: expect.stringContaining('found none') } });
    expect(answer.ok ? '' : answer.error.message).not.toContain('Restart');
    expect(calls()).toBe(1);
  });
});
