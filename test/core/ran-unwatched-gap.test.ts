import { describe, expect, it } from 'vitest';
import { gapSeconds, UNWATCHED_SECONDS } from '../../electron/core/worklog/unwatched.ts';

// How long nobody could work in Fieldguide between two of its notes, from the wall clock's gap and the
// computer's uptime's (sleep included). A walk set the laptop's clock a day forward with Fieldguide open and was
// asked about 24 h "while Fieldguide was closed".
const HOUR = 3600;

describe('the gap between two notes that Fieldguide runs', () => {
  it('a night closed, or asleep: both clocks moved alike', () => {
    expect(gapSeconds(14 * HOUR, 14 * HOUR)).toBe(14 * HOUR);
  });

  it('a clock set a day forward by hand: the uptime moved a minute, and that is the gap', () => {
    expect(gapSeconds(24 * HOUR + 60, 60)).toBe(60);
    expect(gapSeconds(24 * HOUR + 60, 60)).toBeLessThan(UNWATCHED_SECONDS);
  });

  it('a clock set back: no gap', () => {
    expect(gapSeconds(-24 * HOUR, 60)).toBeLessThan(UNWATCHED_SECONDS);
  });

  it('the computer started again (the uptime began anew): the wall clock says', () => {
    expect(gapSeconds(12 * HOUR, -5 * HOUR)).toBe(12 * HOUR);
  });
});
