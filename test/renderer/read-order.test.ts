import { describe, expect, it } from 'vitest';
import { keepLater, laterOf } from '../../src/lib/read-order.ts';

type Copy = { id: string; readOrder: number; says: string };

describe('the later copy of what the App API read', () => {
  it('keeps a copy unless a later one is held, whichever came first', () => {
    const held: Record<string, Copy> = {};
    keepLater(held, { id: 'a', readOrder: 7, says: 'sent' });
    keepLater(held, { id: 'a', readOrder: 5, says: 'waiting' });
    expect(held['a']!.says).toBe('sent');
    keepLater(held, { id: 'a', readOrder: 9, says: 'paused' });
    expect(held['a']!.says).toBe('paused');
    keepLater(held, { id: 'b', readOrder: 1, says: 'new' });
    expect(Object.keys(held).sort()).toEqual(['a', 'b']);
  });

  it('takes a whole list afresh: drops what it does not name, keeps a later copy of what it does', () => {
    const held: Record<string, Copy> = {
      a: { id: 'a', readOrder: 10, says: 'sent' },
      gone: { id: 'gone', readOrder: 3, says: 'another technician' },
    };
    const list = laterOf(held, [
      { id: 'a', readOrder: 8, says: 'waiting' },
      { id: 'c', readOrder: 8, says: 'started' },
    ]);
    expect(list).toEqual({ a: held['a'], c: { id: 'c', readOrder: 8, says: 'started' } });
  });
});
