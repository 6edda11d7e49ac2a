import { describe, expect, it } from 'vitest';
import { formatSpan } from '../../src/lib/format.ts';
import { unwatchedSpan } from '../../src/lib/ran-unwatched.ts';

describe('the time a session ran while Fieldguide was closed, in words', () => {
  it('hours and minutes at a glance', () => {
    expect(formatSpan(14 * 3600)).toBe('14 h');
    expect(formatSpan(13 * 3600 + 33 * 60 + 10)).toBe('13 h 33 min');
    expect(formatSpan(45 * 60)).toBe('45 min');
    expect(formatSpan(0)).toBe('0 min');
  });

  it('two nights are said as their sum, not as the span from the first to the last (the day between)', () => {
    const night = (start: number) => ({ from: start, to: start + 13 * 3600 });
    expect(unwatchedSpan({ stretches: [night(0), night(22 * 3600)] })).toBe('26 h');
  });
});
